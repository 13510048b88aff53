export { ResetPasswordScreen as Component } from '../../features/auth/components/reset-password-screen.tsx';
