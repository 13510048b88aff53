CREATE TABLE "support_agents" (
	"member_id" integer PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" integer NOT NULL,
	"uploaded_by" integer NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_attachments_size_check" CHECK ("support_attachments"."size" > 0 and "support_attachments"."size" <= 5242880)
);
--> statement-breakpoint
CREATE TABLE "support_callbacks" (
	"id" serial PRIMARY KEY NOT NULL,
	"member_id" integer NOT NULL,
	"phone" text NOT NULL,
	"slot_date" text NOT NULL,
	"slot_time" text NOT NULL,
	"scheduled_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"closed_by" integer,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_callbacks_status_check" CHECK ("support_callbacks"."status" in ('open', 'called', 'no_answer'))
);
--> statement-breakpoint
CREATE TABLE "support_conversations" (
	"member_id" integer PRIMARY KEY NOT NULL,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"agent_read_id" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"member_id" integer NOT NULL,
	"sender" text NOT NULL,
	"agent_id" integer,
	"text" text DEFAULT '' NOT NULL,
	"attachment_id" uuid,
	"client_message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_messages_sender_check" CHECK ("support_messages"."sender" in ('user', 'agent', 'greeting')),
	CONSTRAINT "support_messages_text_check" CHECK (char_length("support_messages"."text") <= 2000)
);
--> statement-breakpoint
ALTER TABLE "support_agents" ADD CONSTRAINT "support_agents_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_attachments" ADD CONSTRAINT "support_attachments_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_attachments" ADD CONSTRAINT "support_attachments_uploaded_by_members_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_callbacks" ADD CONSTRAINT "support_callbacks_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_callbacks" ADD CONSTRAINT "support_callbacks_closed_by_members_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_conversations" ADD CONSTRAINT "support_conversations_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_member_id_support_conversations_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."support_conversations"("member_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_agent_id_members_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_attachment_id_support_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."support_attachments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "support_callbacks_open_slot_key" ON "support_callbacks" USING btree ("member_id","scheduled_at") WHERE "support_callbacks"."status" = 'open';--> statement-breakpoint
CREATE INDEX "support_callbacks_queue_idx" ON "support_callbacks" USING btree ("status","scheduled_at");--> statement-breakpoint
CREATE UNIQUE INDEX "support_messages_client_id_key" ON "support_messages" USING btree ("member_id","client_message_id");--> statement-breakpoint
CREATE INDEX "support_messages_member_idx" ON "support_messages" USING btree ("member_id","id");