export { DashboardScreen as Component } from '../../features/account/components/dashboard-screen.tsx';
