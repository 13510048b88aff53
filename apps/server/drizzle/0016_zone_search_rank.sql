-- Issue 9: text search ranks by word similarity through this index (k-nearest, `<<->`), so the
-- best match is found among any number of near-misses. PGlite loads pg_trgm and btree_gist in-process.
CREATE INDEX "zones_operator_search_trgm_idx" ON "zones" USING gist ("operator_id",lower("name" || ' ' || "address") gist_trgm_ops);