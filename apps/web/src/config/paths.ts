/** Every route of the spec's route table (docs/product.md#screens), letter for letter. */
export const paths = {
  root: '/',
  login: '/login',
  otp: '/otp',
  parkit: '/parkit',
  homepage: '/homepage',
  register: '/register',
  dashboard: '/dashboard',
  selectVehicle: '/SelectVehicle',
  subscription: '/subscription',
  forgot: '/forgot',
  confirmLocation: '/confirmlocation',
  closingReceipt: '/ClosingReceipt',
  resetPassword: '/resetpassword',
  parkDetails: '/parkdetails',
  parkingSessionDetail: '/ParkingSessionDetail',
  supportPage: '/supportpage',
  account: '/account',
  profile: '/profile',
  requestCall: '/requestcall',
  pastPark: '/pastpark',
  editProfile: '/editprofile',
  myVehicles: '/myvehicles',
  addVehicles: '/addvehicles',
  stripePage: '/stripepage',
  chatSupport: '/chatsupport',
  addMoney: '/addmoney',
  mapPage: '/mappage',
  findParking: '/findparking',
  findParkingMap: '/findParkingMap',
  quickParkRegister: '/QuickParkRegister',
  /** Not in the spec: the support agents' console. */
  supportConsole: '/support-console',
  /** Not in the spec's table (its route is 'not shown'): the subscription payment page. */
  subscriptionPayment: '/subscription/payment',
  /** Not in the spec: a driver's citations, paid or contested in the app. */
  citations: '/citations',
  /** Not in the spec: a driver's permits, applied for and paid in the app. */
  permits: '/permits',
  /** Not in the spec: the officers' plate check. */
  enforcement: '/enforcement',
  /** Not in the spec: the operator's console; its sections are /operator/{operatorId}/dashboard (the
   * landing page), /zones (and /zones/{zoneId}, /zones/new), /prices, /reports, /people, /audit. */
  operator: '/operator',
  /** Not in the spec: accepting an invitation to an operator's team. */
  operatorJoin: '/operator/join',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

/** /addvehicles?id=12 and the like. */
export function href(path: AppPath, query?: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}
