export { DashboardScreen as Component } from '../../features/profile/components/dashboard-screen.tsx';
