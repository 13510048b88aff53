import {
  doublePrecision,
  integer,
  serial,
  timestamp,
  type AnyPgColumn,
  type UpdateDeleteAction,
} from 'drizzle-orm/pg-core';

// Columns that many tables declare the same way; each call makes a new column. The references to
// members and operators (memberRef, operatorRef) are in members.ts, next to those tables.

/** A moment in time: every timestamp column is timestamptz. */
export function moment(name: string) {
  return timestamp(name, { withTimezone: true });
}

/** created_at: when the row was written. */
export function createdAt() {
  return moment('created_at').notNull().defaultNow();
}

/** updated_at: when the row last changed (the code sets it on each update). */
export function updatedAt() {
  return moment('updated_at').notNull().defaultNow();
}

/** The serial primary key `id`. */
export function serialId() {
  return serial('id').primaryKey();
}

/** A place on the map: lat and lng in degrees. */
export function position() {
  return { lat: doublePrecision('lat').notNull(), lng: doublePrecision('lng').notNull() };
}

/** A required integer reference to another table's key (what happens on its delete, when said). */
export function ref(name: string, target: () => AnyPgColumn, onDelete?: UpdateDeleteAction) {
  return integer(name)
    .notNull()
    .references(target, onDelete && { onDelete });
}
