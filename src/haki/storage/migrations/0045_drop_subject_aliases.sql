-- Nothing ever wrote or read subject aliases: the table goes, with its policy.
DROP TABLE IF EXISTS subject_aliases;
