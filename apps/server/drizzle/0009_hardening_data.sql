-- Issue 8: every API request counts itself in rate_limits. The counters need no crash safety
-- (a lost minute of counts only resets a window), so the table skips the write-ahead log.
ALTER TABLE "rate_limits" SET UNLOGGED;
