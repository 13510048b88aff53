/**
 * Every message the API and the forms show. Spec texts are kept letter for letter (docs/product.md#validation and
 * docs/product.md#errors); the web translates them by their English text, so each one needs a Hindi entry.
 */
export const SPEC_MESSAGES = {
  usernameRequired: 'Username is Required',
  phoneRequired: 'PhoneNumber is Required',
  addressRequired: 'AddressLine1 is Required',
  cityRequired: 'City is Required',
  stateRequired: 'State is Required',
  zipRequired: 'ZipCode is Required',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  unauthorized: 'Unauthorized',
  unknownError: 'An unkown exception has occur. Please Contact administrator.',
  serverNotResponding: 'Server Not Responding',
} as const;

export const MESSAGES = {
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  usernameFormat: 'Username may use letters, digits, dot, dash and underscore (3 to 30)',
  phoneFormat: 'Enter a mobile number of 10 to 15 digits',
  passwordRequired: 'Password is required',
  passwordLength: 'Password must be 8 to 128 characters',
  passwordCommon: 'This password is too common. Please choose another.',
  codeRequired: 'Code is required',
  codeFormat: 'The code has 6 digits',
  zipFormat: 'Enter a 5-digit ZIP code (or ZIP+4)',
  stateUnknown: 'Choose a state from the list',
  validationFailed: 'Please correct the highlighted fields',
  invalidCredentials: 'Invalid username or password',
  invalidCode: 'The code is wrong or has expired',
  codeSent: 'If an account exists for this number, a code has been sent.',
  codeTooSoon: 'Please wait before asking for another code',
  tooManyAttempts: 'Too many attempts. Please try again later.',
  phoneNotVerified: 'Please verify your mobile number first',
  usernameTaken: 'This username is already taken',
  emailTaken: 'This email is already registered',
  phoneTaken: 'This mobile number is already registered',
  passwordChanged: 'Password changed',
  loggedOut: 'Logged out',
  notFound: 'Not found',
  forbidden: 'Forbidden',
  bodyTooLarge: 'The request is too large',
  malformedBody: 'The request body is not valid',
  /** A query parameter the address does not take (the field names it). */
  unknownParameter: 'This address does not take this parameter',
  hostRequired: 'The Host header is required',
  /** 503 with Retry-After: the database is away for a moment (a failover); nothing was changed. */
  serviceUnavailable: 'The service is briefly unavailable. Please try again in a few seconds.',
} as const;

/** Vehicle form and API (docs/product.md#validation, letter for letter; the rest ours). */
export const VEHICLE_MESSAGES = {
  makeRequired: 'VehicleMake is Required',
  modelRequired: 'Vehicle Model is Required',
  plateRequired: 'Plate Number is Required',
  stateRequired: 'State is Required',
  colorRequired: 'Vehicle Color is Required',
  yearRequired: 'Please Select Year',
  plateFormat: 'Plate may have 2 to 10 letters or digits, with spaces or dashes',
  yearRange: 'Year must be from 1900 to next year',
  makeUnknown: 'Choose a make from the list',
  modelUnknown: 'Choose a model of this make',
  colorUnknown: 'Choose a color from the list',
  plateTaken: 'You already have a vehicle with this plate in this state',
  tooManyVehicles: 'You can keep at most 10 vehicles',
  vehicleNotFound: 'Vehicle not found',
  vehicleDeleted: 'Vehicle Deleted Successfully',
  userUpdated: 'User Updated',
} as const;
