/**
 * The Curb Data Specification 1.x Curbs API objects ParkIt publishes and reads (docs/open-data.md;
 * the JSON Schema in schema/cds-curbs.schema.json names the spec section of every field).
 */

/** The version ParkIt speaks (general-information.md, Versioning): major.minor. */
export const CDS_VERSION = '1.0';
export const CDS_MEDIA_TYPE = `application/vnd.cds+json;version=${CDS_VERSION}`;
/** Clients may keep a CDS answer this long, then ask again (a 304 costs little). */
export const CDS_CACHE_CONTROL = 'public, max-age=60, must-revalidate';

export type CdsTimeUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';
export type CdsWeekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
export const CDS_WEEKDAYS: readonly CdsWeekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

export interface CdsPolygon {
  type: 'Polygon';
  coordinates: number[][][];
}

export interface CdsRate {
  rate: number;
  rate_unit: CdsTimeUnit | 'quarter';
  rate_unit_period?: 'rolling' | 'calendar';
  increment_duration?: number;
  increment_amount?: number;
  start_duration?: number;
  end_duration?: number;
  maximum_fee?: number;
}

export interface CdsRule {
  activity: string;
  max_stay?: number;
  max_stay_unit?: CdsTimeUnit;
  no_return?: number;
  no_return_unit?: CdsTimeUnit;
  user_classes?: string[];
  rate?: CdsRate[];
}

export interface CdsTimeSpan {
  start_date?: number;
  end_date?: number;
  days_of_week?: CdsWeekday[];
  days_of_month?: number[];
  months?: number[];
  time_of_day_start?: string;
  time_of_day_end?: string;
  designated_period?: string;
  designated_period_except?: boolean;
}

export interface CdsPolicy {
  curb_policy_id: string;
  published_date: number;
  priority: number;
  rules: CdsRule[];
  time_spans?: CdsTimeSpan[];
  data_source_operator_id?: string[];
}

export interface CdsCurbZone {
  curb_zone_id: string;
  geometry?: CdsPolygon;
  curb_policy_ids: string[];
  published_date: number;
  last_updated_date: number;
  start_date: number;
  end_date?: number;
  name?: string;
  user_zone_id?: string;
  street_name?: string;
  num_spaces?: number;
}

export interface CdsEnvelope<D> {
  version: string;
  time_zone: string;
  last_updated: number;
  currency: string;
  author?: string;
  license_url?: string;
  data: D;
  links?: { first: string; last: string; prev: string | null; next: string | null };
}
