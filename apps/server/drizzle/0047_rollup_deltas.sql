CREATE TABLE "operator_rollup_deltas" (
	"id" bigserial NOT NULL,
	"operator_id" integer NOT NULL,
	"zone_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"local_day" date NOT NULL,
	"local_hour" smallint NOT NULL,
	"sessions_started" bigint NOT NULL,
	"stay_seconds" bigint NOT NULL,
	"parking_cents" bigint NOT NULL,
	"fee_cents" bigint NOT NULL,
	"refunded_cents" bigint NOT NULL,
	"discount_cents" bigint NOT NULL,
	"occupied_seconds" bigint NOT NULL,
	CONSTRAINT "operator_rollup_deltas_operator_id_id_pk" PRIMARY KEY("operator_id","id")
);
--> statement-breakpoint
CREATE INDEX "operator_rollup_deltas_operator_idx" ON "operator_rollup_deltas" USING btree ("operator_id","hour");--> statement-breakpoint
CREATE INDEX "operator_rollup_deltas_id_idx" ON "operator_rollup_deltas" USING btree ("id");