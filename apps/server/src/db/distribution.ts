/**
 * Where each table would live on a distributed PostgreSQL (Citus): the one list of every table,
 * read by `test/distribution.test.ts`, which fails when a table is missing from it or when a
 * constraint closes the path below. The reasoning, the engines and the sources are in
 * docs/scaling.md.
 *
 * - `distributed`: sharded by one key. `member` tables are a driver's own rows (wallet, sessions,
 *   vehicles, support); `operator` tables are an operator's books (audit, rollups, settlements,
 *   keys). A unique constraint must hold the key, and a foreign key between two distributed tables
 *   must join on it (both in the same group), so each check stays on one shard.
 * - `reference`: small, read by every shard (operators, zones and their prices, catalogues);
 *   copied to every node, so a session's join to its zone and policy stays local.
 * - `local`: kept on the coordinator only (sign-in throttles, one-time codes, the outbox of
 *   texts, provider receipts); never joined with a distributed table.
 */
export type Placement =
  { kind: 'distributed'; by: 'member' | 'operator'; column: string } | { kind: 'reference' } | { kind: 'local' };

const byMember = (column = 'member_id'): Placement => ({ kind: 'distributed', by: 'member', column });
const byOperator = (column = 'operator_id'): Placement => ({ kind: 'distributed', by: 'operator', column });
const reference: Placement = { kind: 'reference' };
const local: Placement = { kind: 'local' };

export const TABLE_PLACEMENT: Readonly<Record<string, Placement>> = {
  // a driver's rows
  members: byMember('id'),
  idempotency_keys: byMember(),
  ledger_entries: byMember(),
  parking_card_payments: byMember(),
  parking_options: byMember(),
  parking_quotes: byMember(),
  parking_sessions: byMember(),
  payment_methods: byMember(),
  push_messages: byMember(),
  push_subscriptions: byMember(),
  refresh_tokens: byMember(),
  reminder_settings: byMember(),
  subscriptions: byMember(),
  support_agents: byMember(),
  support_attachments: byMember(),
  support_callbacks: byMember(),
  support_conversations: byMember(),
  support_messages: byMember(),
  vehicles: byMember(),
  wallet_charges: byMember(),
  wallet_refunds: byMember(),
  wallet_settings: byMember(),
  // a staff member's rows travel with the member: sign-in reads them with the member
  operator_staff: byMember(),
  // an operator's books
  audit_log: byOperator(),
  enforcement_checks: byOperator(),
  chalks: byOperator(),
  apds_assigned_rights: byOperator(),
  apds_partner_sessions: byOperator(),
  operator_idempotency_keys: byOperator(),
  operator_api_keys: byOperator(),
  operator_daily_rollups: byOperator(),
  operator_hourly_rollups: byOperator(),
  operator_rollup_deltas: byOperator(),
  operator_invites: byOperator(),
  session_refunds: byOperator(),
  permit_types: byOperator(),
  permits: byOperator(),
  visitor_days: byOperator(),
  violations: byOperator(),
  citations: byOperator(),
  citation_files: byOperator(),
  citation_contests: byOperator(),
  settlement_lines: byOperator(),
  settlement_statements: byOperator(),
  // small, read by every shard
  operators: reference,
  zones: reference,
  zone_set_versions: reference,
  price_policies: reference,
  price_policy_versions: reference,
  price_events: reference,
  plans: reference,
  us_states: reference,
  vehicle_colors: reference,
  vehicle_makes: reference,
  vehicle_models: reference,
  // the coordinator's own
  auth_failures: local,
  otp_codes: local,
  otp_sends: local,
  outbox: local,
  // The APDS webhook subscriptions and their queue, beside the outbox of texts; the trigger that
  // fills the queue moves to the session's write path there (docs/decisions/016-webhook-outbox.md).
  apds_webhooks: local,
  apds_webhook_deliveries: local,
  provider_events: local,
  rate_limits: local,
};

/**
 * What today's schema still does that a distributed database would refuse, each with the change
 * that removes it. The test fails when a new violation appears and when one of these is gone (so
 * the list is always the true distance to a distributed database).
 */
const KEY_FIRST = 'the primary key becomes (key, id); ids stay unique by their own sequence or uuid';
const FK_ON_KEY =
  'the child keeps the key and the foreign key joins on it: (key, parent_id) references parent (key, id)';
const ADD_KEY = 'add the key column, filled from the parent row, so the row lives beside its parent';
const ADD_KEY_TO_UNIQUE = 'the unique index adds the key in front (the rule is per driver or per operator already)';
const LOOKUP =
  'a global value (a login, a card reference, an endpoint): its uniqueness moves to a small lookup table distributed by the value itself, written in the same transaction';
const GUEST = 'a guest (Quick Park, no account) gets a member row of its own per phone, so the key is never null';
const PLAIN_ID =
  'a reference to another driver or group (the agent, the staff member who acted): kept as a plain id, checked by the code, without a foreign key';
const NOT_NULL = 'backfill from the key that was used, then NOT NULL';

export const KNOWN_GAPS: Readonly<Record<string, string>> = {
  'audit_log unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
  'enforcement_checks -> operator_api_keys not on the key: FOREIGN KEY (key_id) REFERENCES operator_api_keys(id)':
    FK_ON_KEY,
  'enforcement_checks unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
  'enforcement_checks: operator_id may be null': NOT_NULL,
  'ledger_entries unique without member_id: PRIMARY KEY (id)': KEY_FIRST,
  'members unique without id: CREATE UNIQUE INDEX members_email_key ON public.members USING btree (lower(email))':
    LOOKUP,
  'members unique without id: CREATE UNIQUE INDEX members_phone_key ON public.members USING btree (phone)': LOOKUP,
  'members unique without id: CREATE UNIQUE INDEX members_user_name_key ON public.members USING btree (lower(user_name))':
    LOOKUP,
  'operator_api_keys unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
  'operator_api_keys unique without operator_id: UNIQUE (prefix)': LOOKUP,
  'operator_invites unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
  'parking_card_payments -> parking_sessions not on the key: FOREIGN KEY (session_id) REFERENCES parking_sessions(id) ON DELETE CASCADE':
    FK_ON_KEY,
  'parking_card_payments unique without member_id: CREATE UNIQUE INDEX parking_card_payments_charge_key ON public.parking_card_payments USING btree (charge_ref)':
    LOOKUP,
  'parking_card_payments unique without member_id: PRIMARY KEY (id)': KEY_FIRST,
  'parking_card_payments: no column member_id to distribute by': ADD_KEY,
  'parking_quotes -> parking_sessions not on the key: FOREIGN KEY (session_id) REFERENCES parking_sessions(id) ON DELETE CASCADE':
    FK_ON_KEY,
  'parking_quotes -> vehicles not on the key: FOREIGN KEY (vehicle_id) REFERENCES vehicles(id) ON DELETE CASCADE':
    FK_ON_KEY,
  'parking_quotes unique without member_id: PRIMARY KEY (id)': KEY_FIRST,
  'parking_quotes: member_id may be null': GUEST,
  'parking_sessions -> vehicles not on the key: FOREIGN KEY (vehicle_id) REFERENCES vehicles(id) ON DELETE SET NULL':
    FK_ON_KEY,
  "parking_sessions unique without member_id: CREATE UNIQUE INDEX parking_sessions_active_guest_plate_key ON public.parking_sessions USING btree (guest_phone, plate, plate_state) WHERE ((status = 'active'::text) AND (member_id IS NULL))":
    GUEST,
  "parking_sessions unique without member_id: CREATE UNIQUE INDEX parking_sessions_active_vehicle_key ON public.parking_sessions USING btree (vehicle_id) WHERE ((status = 'active'::text) AND (vehicle_id IS NOT NULL))":
    ADD_KEY_TO_UNIQUE,
  'parking_sessions unique without member_id: PRIMARY KEY (id)': KEY_FIRST,
  'parking_sessions: member_id may be null': GUEST,
  'payment_methods unique without member_id: PRIMARY KEY (id)': KEY_FIRST,
  'push_messages -> push_subscriptions not on the key: FOREIGN KEY (subscription_id) REFERENCES push_subscriptions(id) ON DELETE CASCADE':
    FK_ON_KEY,
  'push_messages unique without member_id: PRIMARY KEY (id)': KEY_FIRST,
  'push_messages: no column member_id to distribute by': ADD_KEY,
  'push_subscriptions unique without member_id: PRIMARY KEY (id)': KEY_FIRST,
  'push_subscriptions unique without member_id: UNIQUE (endpoint)': LOOKUP,
  'refresh_tokens unique without member_id: PRIMARY KEY (id)': KEY_FIRST,
  'refresh_tokens unique without member_id: UNIQUE (token_hash)': LOOKUP,
  'session_refunds -> members not on the key: FOREIGN KEY (actor_id) REFERENCES members(id) ON DELETE SET NULL':
    PLAIN_ID,
  'session_refunds -> parking_sessions not on the key: FOREIGN KEY (session_id) REFERENCES parking_sessions(id) ON DELETE CASCADE':
    FK_ON_KEY,
  'session_refunds unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
  'settlement_lines -> settlement_statements not on the key: FOREIGN KEY (statement_id) REFERENCES settlement_statements(id)':
    FK_ON_KEY,
  'settlement_lines unique without operator_id: CREATE UNIQUE INDEX settlement_lines_source_key ON public.settlement_lines USING btree (period_kind, source, source_id)':
    ADD_KEY_TO_UNIQUE,
  'settlement_lines unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
  'settlement_lines: no column operator_id to distribute by': ADD_KEY,
  'settlement_statements -> members not on the key: FOREIGN KEY (issued_by) REFERENCES members(id) ON DELETE SET NULL':
    PLAIN_ID,
  'settlement_statements unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
  'subscriptions unique without member_id: PRIMARY KEY (id)': KEY_FIRST,
  'support_attachments -> members not on the key: FOREIGN KEY (uploaded_by) REFERENCES members(id) ON DELETE CASCADE':
    PLAIN_ID,
  'support_attachments unique without member_id: PRIMARY KEY (id)': KEY_FIRST,
  'support_callbacks -> members not on the key: FOREIGN KEY (closed_by) REFERENCES members(id) ON DELETE SET NULL':
    PLAIN_ID,
  'support_callbacks unique without member_id: PRIMARY KEY (id)': KEY_FIRST,
  'support_messages -> members not on the key: FOREIGN KEY (agent_id) REFERENCES members(id) ON DELETE SET NULL':
    PLAIN_ID,
  'support_messages -> support_attachments not on the key: FOREIGN KEY (attachment_id) REFERENCES support_attachments(id) ON DELETE SET NULL':
    FK_ON_KEY,
  'support_messages unique without member_id: PRIMARY KEY (id)': KEY_FIRST,
  'vehicles unique without member_id: PRIMARY KEY (id)': KEY_FIRST,
  'wallet_charges -> parking_card_payments not on the key: FOREIGN KEY (card_payment_id) REFERENCES parking_card_payments(id) ON DELETE CASCADE':
    FK_ON_KEY,
  'wallet_charges -> parking_quotes not on the key: FOREIGN KEY (quote_id) REFERENCES parking_quotes(id) ON DELETE CASCADE':
    FK_ON_KEY,
  'wallet_charges unique without member_id: PRIMARY KEY (id)': KEY_FIRST,
  'wallet_charges unique without member_id: UNIQUE (provider_key)': LOOKUP,
  'wallet_charges: member_id may be null': GUEST,
  'wallet_refunds -> wallet_charges not on the key: FOREIGN KEY (charge_id) REFERENCES wallet_charges(id)': FK_ON_KEY,
  'wallet_refunds unique without member_id: PRIMARY KEY (id)': KEY_FIRST,
  'wallet_refunds unique without member_id: UNIQUE (provider_key)': LOOKUP,
  'citation_contests -> citations not on the key: FOREIGN KEY (citation_id) REFERENCES citations(id) ON DELETE CASCADE':
    FK_ON_KEY,
  'citation_contests -> members not on the key: FOREIGN KEY (decided_by) REFERENCES members(id) ON DELETE SET NULL':
    PLAIN_ID,
  'citation_contests -> members not on the key: FOREIGN KEY (member_id) REFERENCES members(id) ON DELETE SET NULL':
    PLAIN_ID,
  'citation_contests unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
  'citation_contests unique without operator_id: UNIQUE (citation_id)': ADD_KEY_TO_UNIQUE,
  'citation_contests: no column operator_id to distribute by': ADD_KEY,
  'citation_files -> citations not on the key: FOREIGN KEY (citation_id) REFERENCES citations(id) ON DELETE CASCADE':
    FK_ON_KEY,
  'citation_files -> members not on the key: FOREIGN KEY (uploaded_by) REFERENCES members(id) ON DELETE SET NULL':
    PLAIN_ID,
  'citation_files unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
  'citation_files: operator_id may be null': NOT_NULL,
  'citations -> members not on the key: FOREIGN KEY (officer_id) REFERENCES members(id) ON DELETE SET NULL': PLAIN_ID,
  'citations -> members not on the key: FOREIGN KEY (paid_by) REFERENCES members(id) ON DELETE SET NULL': PLAIN_ID,
  'citations -> violations not on the key: FOREIGN KEY (violation_id) REFERENCES violations(id)': FK_ON_KEY,
  'citations unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
  'chalks unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
  'apds_assigned_rights unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
  'apds_partner_sessions unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
  'violations unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
  'permit_types unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
  'permits -> members not on the key: FOREIGN KEY (member_id) REFERENCES members(id) ON DELETE CASCADE': PLAIN_ID,
  'permits -> permit_types not on the key: FOREIGN KEY (type_id) REFERENCES permit_types(id)': FK_ON_KEY,
  'permits -> support_attachments not on the key: FOREIGN KEY (proof_attachment_id) REFERENCES support_attachments(id) ON DELETE SET NULL':
    FK_ON_KEY,
  'permits unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
  'visitor_days -> members not on the key: FOREIGN KEY (member_id) REFERENCES members(id) ON DELETE CASCADE': PLAIN_ID,
  'visitor_days -> permits not on the key: FOREIGN KEY (permit_id) REFERENCES permits(id) ON DELETE CASCADE': FK_ON_KEY,
  'visitor_days unique without operator_id: CREATE UNIQUE INDEX visitor_days_permit_plate_day_key ON public.visitor_days USING btree (permit_id, plate, day)':
    ADD_KEY_TO_UNIQUE,
  'visitor_days unique without operator_id: PRIMARY KEY (id)': KEY_FIRST,
};
