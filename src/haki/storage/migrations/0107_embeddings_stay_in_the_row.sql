-- A turn's embedding stays in its row, whatever the turn's length up to 8 kB.
--
-- PostgreSQL moves a row's long values to the table's TOAST relation as soon
-- as the row passes about 2 kB (toast_tuple_target's default), the largest
-- first: with a 384-float embedding (1,544 bytes, storage 'external'), a
-- turn of more than about 150 characters with its tsvector passes it, and
-- the embedding goes out of line. Two thirds of the LoCoMo turns were stored
-- that way: each distance the cosine leg and the neighbours compute then
-- looks the vector up through the TOAST index and reads its page (3.3
-- buffers a row instead of 1): 2.7 ms for the cosine leg of a 419-turn scope,
-- 1.8 ms once the vectors sit in their rows, and 2.15 ms for the neighbours,
-- 1.7 ms after. The full-text leg, which reads the rows it matches, did not
-- slow down with the wider rows. Facts carry the same embedding.
--
-- The setting applies to rows written from now on; a row stored before keeps
-- its out-of-line vector until the table is rewritten (VACUUM FULL).
ALTER TABLE episode_chunks SET (toast_tuple_target = 8160);
ALTER TABLE facts SET (toast_tuple_target = 8160);
