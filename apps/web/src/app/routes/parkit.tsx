export { Landing as Component } from '../../features/auth/components/landing.tsx';
