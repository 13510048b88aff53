ALTER TABLE "citations" DROP CONSTRAINT "citations_paid_charge_id_wallet_charges_id_fk";
