export { OtpScreen as Component } from '../../features/auth/components/otp-screen.tsx';
