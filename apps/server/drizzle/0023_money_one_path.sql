CREATE TABLE "wallet_charges" (
	"id" serial PRIMARY KEY NOT NULL,
	"member_id" integer NOT NULL,
	"provider_key" text NOT NULL,
	"kind" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"description" text NOT NULL,
	"provider_ref" text NOT NULL,
	"customer_ref" text,
	"idempotency_key" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"charge_ref" text,
	"ledger_entry_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_charges_provider_key_unique" UNIQUE("provider_key"),
	CONSTRAINT "wallet_charges_amount_positive" CHECK ("wallet_charges"."amount_cents" > 0),
	CONSTRAINT "wallet_charges_kind" CHECK ("wallet_charges"."kind" in ('top-up', 'auto-reload')),
	CONSTRAINT "wallet_charges_status" CHECK ("wallet_charges"."status" in ('pending', 'recorded'))
);
--> statement-breakpoint
ALTER TABLE "wallet_charges" ADD CONSTRAINT "wallet_charges_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wallet_charges_pending_idx" ON "wallet_charges" USING btree ("created_at") WHERE "wallet_charges"."status" = 'pending';--> statement-breakpoint
-- The one implementation of a change of balance: the balance moved (never below zero), its ledger
-- entry written, and a debit that leaves the balance under the member's trigger marks the member's
-- auto-reload due (when it is on, none is pending and a default card exists). No row when the member
-- does not exist or a debit exceeds the balance: nothing is written. Called by wallet/ledger.ts's
-- postEntry and inside Start's one statement (parking/start-statement.ts).
CREATE FUNCTION "post_ledger_entry"("p_member" integer, "p_amount" integer, "p_kind" text, "p_reference" text, "p_key" text)
RETURNS TABLE ("entry_id" bigint, "balance_after" integer, "reload_due" boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_balance integer;
  v_trigger integer;
BEGIN
  IF p_amount IS NULL OR p_amount = 0 THEN
    RAISE EXCEPTION 'post_ledger_entry: the amount must be a non-zero integer' USING ERRCODE = '22023';
  END IF;
  UPDATE members m SET balance_cents = m.balance_cents + p_amount
    WHERE m.id = p_member AND m.balance_cents + p_amount >= 0
    RETURNING m.balance_cents, m.min_balance_cents INTO v_balance, v_trigger;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  INSERT INTO ledger_entries (member_id, amount_cents, kind, reference, idempotency_key, balance_after_cents)
    VALUES (p_member, p_amount, p_kind, left(p_reference, 200), p_key, v_balance)
    RETURNING id INTO entry_id;
  balance_after := v_balance;
  reload_due := false;
  IF p_amount < 0 AND v_balance < v_trigger THEN
    UPDATE wallet_settings w SET reload_due_at = now()
      WHERE w.member_id = p_member AND w.auto_reload AND w.reload_due_at IS NULL
        AND EXISTS (SELECT 1 FROM payment_methods pm WHERE pm.member_id = p_member AND pm.is_default);
    reload_due := FOUND;
  END IF;
  RETURN NEXT;
END $$;
--> statement-breakpoint
-- Every balance comes from ledger entries: a balance written without one (the demo member's seeded
-- 25.00 before this release) gets its opening entry.
INSERT INTO "ledger_entries" ("member_id", "amount_cents", "kind", "reference", "balance_after_cents")
SELECT m."id", m."balance_cents" - coalesce(sum(l."amount_cents"), 0), 'adjustment', 'opening-balance', m."balance_cents"
FROM "members" m LEFT JOIN "ledger_entries" l ON l."member_id" = m."id"
GROUP BY m."id", m."balance_cents"
HAVING m."balance_cents" <> coalesce(sum(l."amount_cents"), 0);
