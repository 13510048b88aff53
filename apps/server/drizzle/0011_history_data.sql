-- Past parking (issue 12): a member with a long history must be known to the planner as such, or
-- it may read all of that member's sessions and sort them instead of walking
-- parking_sessions_member_started_idx from the cursor (seen at 10 million sessions). A larger
-- sample of member_id keeps such members in the column's most-common-values list.
ALTER TABLE "parking_sessions" ALTER COLUMN "member_id" SET STATISTICS 1000;
