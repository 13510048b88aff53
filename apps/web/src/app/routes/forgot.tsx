export { ForgotScreen as Component } from '../../features/auth/components/forgot-screen.tsx';
