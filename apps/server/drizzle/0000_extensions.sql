-- Extensions for geo search (cube + earthdistance, GiST on ll_to_earth) and typo-tolerant
-- address search (pg_trgm). On PostgreSQL these need a superuser; PGlite loads them in-process.
CREATE EXTENSION IF NOT EXISTS cube;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS earthdistance;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
