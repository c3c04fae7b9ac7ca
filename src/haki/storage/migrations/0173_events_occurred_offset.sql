-- The offset an event's occurred_at was given in, in seconds east of UTC.
--
-- timestamptz keeps the instant and drops the offset, yet the words of a
-- turn are said on the speaker's clock: "on Saturday" said at 23:50 in
-- California (-08:00) is that Saturday there, already Sunday in UTC. The
-- consolidator reads a turn's relative times against occurred_at in this
-- offset (providers/extraction/when.py). NULL, for events captured before
-- this column, reads as UTC, as before.
ALTER TABLE events ADD COLUMN occurred_offset integer
    CHECK (occurred_offset > -86400 AND occurred_offset < 86400);
