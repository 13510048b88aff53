// Reference data seeded into the database by migration (see scripts/reference-sql.ts).
// Kept here as plain data so the generated SQL is reproducible and reviewable.
// Make names follow common US display spelling; model names use the manufacturer's casing.
// Makes and models are sorted with `localeCompare(…, 'en')`; ids are assigned in list order.

export interface MakeSeed {
  readonly name: string;
  readonly models: readonly string[];
}

export const VEHICLE_MAKES: readonly MakeSeed[] = [
  { name: 'Acura', models: ['ILX', 'Integra', 'MDX', 'NSX', 'RDX', 'RLX', 'TL', 'TLX', 'TSX', 'ZDX'] },
  { name: 'Alfa Romeo', models: ['4C', 'Giulia', 'Stelvio', 'Tonale'] },
  { name: 'Aston Martin', models: ['DB11', 'DB12', 'DBS', 'DBX', 'Vantage'] },
  {
    name: 'Audi',
    models: ['A3', 'A4', 'A5', 'A6', 'A7', 'A8', 'e-tron', 'e-tron GT', 'Q3', 'Q4 e-tron', 'Q5', 'Q7', 'Q8', 'R8', 'S4', 'TT'],
  },
  { name: 'Bentley', models: ['Bentayga', 'Continental GT', 'Flying Spur', 'Mulsanne'] },
  {
    name: 'BMW',
    models: [
      '2 Series', '3 Series', '4 Series', '5 Series', '7 Series', '8 Series', 'i3', 'i4', 'i7', 'iX',
      'M3', 'M4', 'X1', 'X2', 'X3', 'X4', 'X5', 'X6', 'X7', 'Z4',
    ],
  },
  { name: 'Buick', models: ['Enclave', 'Encore', 'Encore GX', 'Envision', 'Envista', 'LaCrosse', 'Lucerne', 'Regal', 'Verano'] },
  {
    name: 'Cadillac',
    models: ['ATS', 'CT4', 'CT5', 'CT6', 'CTS', 'Escalade', 'LYRIQ', 'SRX', 'XT4', 'XT5', 'XT6', 'XTS'],
  },
  {
    name: 'Chevrolet',
    models: [
      'Blazer', 'Bolt EV', 'Camaro', 'Colorado', 'Corvette', 'Cruze', 'Equinox', 'Express', 'Impala', 'Malibu',
      'Silverado', 'Sonic', 'Spark', 'Suburban', 'Tahoe', 'Trailblazer', 'Traverse', 'Trax',
    ],
  },
  { name: 'Chrysler', models: ['200', '300', 'Pacifica', 'PT Cruiser', 'Sebring', 'Town & Country', 'Voyager'] },
  {
    name: 'Dodge',
    models: ['Avenger', 'Caliber', 'Challenger', 'Charger', 'Dart', 'Durango', 'Grand Caravan', 'Hornet', 'Journey', 'Viper'],
  },
  {
    name: 'Ferrari',
    models: ['296 GTB', '458 Italia', '488 GTB', '812 Superfast', 'F8 Tributo', 'Portofino', 'Purosangue', 'Roma', 'SF90 Stradale'],
  },
  { name: 'Fiat', models: ['124 Spider', '500', '500e', '500L', '500X'] },
  {
    name: 'Ford',
    models: [
      'Bronco', 'Bronco Sport', 'EcoSport', 'Edge', 'Escape', 'Expedition', 'Explorer', 'F-150', 'F-150 Lightning', 'F-250',
      'Fiesta', 'Focus', 'Fusion', 'Maverick', 'Mustang', 'Mustang Mach-E', 'Ranger', 'Taurus', 'Transit',
    ],
  },
  { name: 'Genesis', models: ['G70', 'G80', 'G90', 'GV60', 'GV70', 'GV80'] },
  {
    name: 'GMC',
    models: ['Acadia', 'Canyon', 'Envoy', 'HUMMER EV', 'Savana', 'Sierra', 'Terrain', 'Yukon', 'Yukon XL'],
  },
  {
    name: 'Honda',
    models: [
      'Accord', 'Civic', 'Clarity', 'CR-V', 'CR-Z', 'Element', 'Fit', 'HR-V', 'Insight', 'Odyssey',
      'Passport', 'Pilot', 'Prologue', 'Ridgeline',
    ],
  },
  { name: 'Hummer', models: ['H1', 'H2', 'H3', 'H3T'] },
  {
    name: 'Hyundai',
    models: [
      'Accent', 'Azera', 'Elantra', 'Genesis', 'IONIQ 5', 'IONIQ 6', 'Kona', 'Palisade', 'Santa Cruz', 'Santa Fe',
      'Sonata', 'Tucson', 'Veloster', 'Venue',
    ],
  },
  { name: 'Infiniti', models: ['FX35', 'G37', 'Q50', 'Q60', 'Q70', 'QX50', 'QX55', 'QX60', 'QX80'] },
  { name: 'Jaguar', models: ['E-PACE', 'F-PACE', 'F-TYPE', 'I-PACE', 'XE', 'XF', 'XJ'] },
  {
    name: 'Jeep',
    models: [
      'Cherokee', 'Commander', 'Compass', 'Gladiator', 'Grand Cherokee', 'Grand Wagoneer', 'Liberty', 'Patriot',
      'Renegade', 'Wagoneer', 'Wrangler',
    ],
  },
  {
    name: 'Kia',
    models: [
      'Carnival', 'EV6', 'EV9', 'Forte', 'K5', 'Niro', 'Optima', 'Rio', 'Sedona', 'Seltos', 'Sorento', 'Soul',
      'Sportage', 'Stinger', 'Telluride',
    ],
  },
  { name: 'Lamborghini', models: ['Aventador', 'Huracán', 'Revuelto', 'Urus'] },
  {
    name: 'Land Rover',
    models: [
      'Defender', 'Discovery', 'Discovery Sport', 'LR4', 'Range Rover', 'Range Rover Evoque', 'Range Rover Sport',
      'Range Rover Velar',
    ],
  },
  { name: 'Lexus', models: ['CT', 'ES', 'GS', 'GX', 'IS', 'LC', 'LS', 'LX', 'NX', 'RC', 'RX', 'RZ', 'TX', 'UX'] },
  {
    name: 'Lincoln',
    models: ['Aviator', 'Continental', 'Corsair', 'MKC', 'MKX', 'MKZ', 'Nautilus', 'Navigator', 'Town Car'],
  },
  { name: 'Lucid', models: ['Air', 'Gravity'] },
  { name: 'Maserati', models: ['Ghibli', 'GranTurismo', 'Grecale', 'Levante', 'MC20', 'Quattroporte'] },
  {
    name: 'Mazda',
    models: ['CX-3', 'CX-30', 'CX-5', 'CX-50', 'CX-70', 'CX-9', 'CX-90', 'Mazda3', 'Mazda6', 'MX-30', 'MX-5 Miata', 'RX-8', 'Tribute'],
  },
  { name: 'McLaren', models: ['570S', '600LT', '720S', '750S', 'Artura', 'GT'] },
  {
    name: 'Mercedes-Benz',
    models: [
      'A-Class', 'C-Class', 'CLA', 'CLS', 'E-Class', 'EQB', 'EQE', 'EQS', 'G-Class', 'GLA', 'GLB', 'GLC', 'GLE',
      'GLS', 'Metris', 'S-Class', 'SL', 'Sprinter',
    ],
  },
  { name: 'Mercury', models: ['Grand Marquis', 'Mariner', 'Milan', 'Montego', 'Mountaineer', 'Sable'] },
  { name: 'Mini', models: ['Clubman', 'Convertible', 'Cooper', 'Countryman', 'Paceman'] },
  {
    name: 'Mitsubishi',
    models: ['Eclipse', 'Eclipse Cross', 'Galant', 'Lancer', 'Mirage', 'Outlander', 'Outlander Sport'],
  },
  {
    name: 'Nissan',
    models: [
      '370Z', 'Altima', 'ARIYA', 'Armada', 'Frontier', 'GT-R', 'Juke', 'Kicks', 'LEAF', 'Maxima', 'Murano',
      'Pathfinder', 'Rogue', 'Rogue Sport', 'Sentra', 'TITAN', 'Versa', 'Z',
    ],
  },
  { name: 'Oldsmobile', models: ['Alero', 'Aurora', 'Bravada', 'Cutlass', 'Intrigue', 'Silhouette'] },
  { name: 'Polestar', models: ['Polestar 1', 'Polestar 2', 'Polestar 3', 'Polestar 4'] },
  {
    name: 'Pontiac',
    models: ['Aztek', 'Bonneville', 'Firebird', 'G6', 'G8', 'Grand Am', 'Grand Prix', 'Solstice', 'Sunfire', 'Torrent', 'Vibe'],
  },
  { name: 'Porsche', models: ['911', 'Boxster', 'Cayenne', 'Cayman', 'Macan', 'Panamera', 'Taycan'] },
  { name: 'Ram', models: ['1500', '2500', '3500', 'ProMaster', 'ProMaster City'] },
  { name: 'Rivian', models: ['R1S', 'R1T'] },
  { name: 'Rolls-Royce', models: ['Cullinan', 'Dawn', 'Ghost', 'Phantom', 'Spectre', 'Wraith'] },
  { name: 'Saab', models: ['9-2X', '9-3', '9-5', '9-7X'] },
  { name: 'Saturn', models: ['Astra', 'Aura', 'Ion', 'L-Series', 'Outlook', 'Relay', 'S-Series', 'Sky', 'Vue'] },
  { name: 'Scion', models: ['FR-S', 'iA', 'iM', 'iQ', 'tC', 'xA', 'xB', 'xD'] },
  {
    name: 'Subaru',
    models: ['Ascent', 'Baja', 'BRZ', 'Crosstrek', 'Forester', 'Impreza', 'Legacy', 'Outback', 'Solterra', 'Tribeca', 'WRX'],
  },
  { name: 'Suzuki', models: ['Aerio', 'Equator', 'Forenza', 'Grand Vitara', 'Kizashi', 'Reno', 'SX4', 'XL7'] },
  { name: 'Tesla', models: ['Cybertruck', 'Model 3', 'Model S', 'Model X', 'Model Y', 'Roadster'] },
  {
    name: 'Toyota',
    models: [
      '4Runner', 'Avalon', 'bZ4X', 'C-HR', 'Camry', 'Corolla', 'Corolla Cross', 'Crown', 'GR86', 'Grand Highlander',
      'Highlander', 'Land Cruiser', 'Prius', 'RAV4', 'Sequoia', 'Sienna', 'Supra', 'Tacoma', 'Tundra', 'Venza', 'Yaris',
    ],
  },
  {
    name: 'Volkswagen',
    models: [
      'Arteon', 'Atlas', 'Atlas Cross Sport', 'Beetle', 'CC', 'Golf', 'Golf GTI', 'Golf R', 'ID. Buzz', 'ID.4',
      'Jetta', 'Passat', 'Taos', 'Tiguan', 'Touareg',
    ],
  },
  { name: 'Volvo', models: ['C40', 'EX30', 'EX90', 'S60', 'S90', 'V60', 'V90', 'XC40', 'XC60', 'XC90'] },
];

// Common-color buckets in the order shown to users; "Other" is the catch-all and stays last.
export const VEHICLE_COLORS: readonly string[] = [
  'Black', 'White', 'Silver', 'Gray', 'Red', 'Blue', 'Green', 'Brown',
  'Beige', 'Gold', 'Orange', 'Yellow', 'Purple', 'Maroon', 'Tan', 'Other',
];

export interface StateSeed {
  readonly code: string;
  readonly name: string;
}

// The 50 states plus the District of Columbia, keyed by USPS code.
export const US_STATES: readonly StateSeed[] = [
  { code: 'AK', name: 'Alaska' },
  { code: 'AL', name: 'Alabama' },
  { code: 'AR', name: 'Arkansas' },
  { code: 'AZ', name: 'Arizona' },
  { code: 'CA', name: 'California' },
  { code: 'CO', name: 'Colorado' },
  { code: 'CT', name: 'Connecticut' },
  { code: 'DC', name: 'District of Columbia' },
  { code: 'DE', name: 'Delaware' },
  { code: 'FL', name: 'Florida' },
  { code: 'GA', name: 'Georgia' },
  { code: 'HI', name: 'Hawaii' },
  { code: 'IA', name: 'Iowa' },
  { code: 'ID', name: 'Idaho' },
  { code: 'IL', name: 'Illinois' },
  { code: 'IN', name: 'Indiana' },
  { code: 'KS', name: 'Kansas' },
  { code: 'KY', name: 'Kentucky' },
  { code: 'LA', name: 'Louisiana' },
  { code: 'MA', name: 'Massachusetts' },
  { code: 'MD', name: 'Maryland' },
  { code: 'ME', name: 'Maine' },
  { code: 'MI', name: 'Michigan' },
  { code: 'MN', name: 'Minnesota' },
  { code: 'MO', name: 'Missouri' },
  { code: 'MS', name: 'Mississippi' },
  { code: 'MT', name: 'Montana' },
  { code: 'NC', name: 'North Carolina' },
  { code: 'ND', name: 'North Dakota' },
  { code: 'NE', name: 'Nebraska' },
  { code: 'NH', name: 'New Hampshire' },
  { code: 'NJ', name: 'New Jersey' },
  { code: 'NM', name: 'New Mexico' },
  { code: 'NV', name: 'Nevada' },
  { code: 'NY', name: 'New York' },
  { code: 'OH', name: 'Ohio' },
  { code: 'OK', name: 'Oklahoma' },
  { code: 'OR', name: 'Oregon' },
  { code: 'PA', name: 'Pennsylvania' },
  { code: 'RI', name: 'Rhode Island' },
  { code: 'SC', name: 'South Carolina' },
  { code: 'SD', name: 'South Dakota' },
  { code: 'TN', name: 'Tennessee' },
  { code: 'TX', name: 'Texas' },
  { code: 'UT', name: 'Utah' },
  { code: 'VA', name: 'Virginia' },
  { code: 'VT', name: 'Vermont' },
  { code: 'WA', name: 'Washington' },
  { code: 'WI', name: 'Wisconsin' },
  { code: 'WV', name: 'West Virginia' },
  { code: 'WY', name: 'Wyoming' },
];
