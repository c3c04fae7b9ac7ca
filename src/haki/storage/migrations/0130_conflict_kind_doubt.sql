-- A third kind of conflict set: `doubt`. A later turn of the subject says a
-- held fact may no longer be true ("sorry, the email I gave you is wrong",
-- "we changed our indentation rules") without a value the extractor can
-- read. The fact is held back like any open conflict's member, and the
-- packet says why, until someone settles it (consolidator/doubt.py).
ALTER TABLE conflict_sets DROP CONSTRAINT IF EXISTS conflict_sets_kind_check;
ALTER TABLE conflict_sets
    ADD CONSTRAINT conflict_sets_kind_check CHECK (kind IN ('contradiction', 'quarantine', 'doubt'));
