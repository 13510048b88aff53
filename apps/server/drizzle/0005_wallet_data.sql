-- Plans of /subscription (issue 10). Basic: free, a convenience fee per parking session.
-- Deluxe: 4.99 a month, no convenience fee, 10% off zone rates where the operator allows it.
INSERT INTO "plans" ("id", "code", "name", "price_cents", "convenience_fee_cents", "zone_discount_percent", "sort_order") VALUES
  (1, 'basic', 'Basic', 0, 35, 0, 1),
  (2, 'deluxe', 'Deluxe', 499, 0, 10, 2)
ON CONFLICT ("id") DO NOTHING;
