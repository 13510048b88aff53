export { ProfileScreen as Component } from '../../features/profile/components/profile-screen.tsx';
