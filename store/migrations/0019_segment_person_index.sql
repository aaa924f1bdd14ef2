-- 0019: the segments that name a person, found without a scan: the
-- console's People page counts them, and merging or deleting a person
-- rewrites them. Most segments name nobody, so the index is partial.
CREATE INDEX transcript_segments_person ON transcript_segments(person_id) WHERE person_id IS NOT NULL;
