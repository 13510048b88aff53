export { ProfileScreen as Component } from '../../features/account/components/profile-screen.tsx';
