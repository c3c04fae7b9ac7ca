-- Device-code logins (`haki login`): a terminal asks for a code, a person
-- approves it in the console, the terminal receives a new key once.
-- A pending code belongs to no project yet, so every row lives under one
-- constant partition key, '~device' (no route reads this table by tenant),
-- and the project it is approved for is a plain column.
-- Only the hash of the device code is stored, and no key: the key is issued
-- by the terminal's poll after approval, which deletes the row.
CREATE TABLE cli_device_codes (
    project_id          text NOT NULL DEFAULT '~device' CHECK (project_id = '~device'),
    device_code_hash    text NOT NULL,
    user_code           text NOT NULL,
    status              text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'approved')),
    approved_project_id text,
    approved_org_id     text,
    label               text NOT NULL DEFAULT '',
    created_at          timestamptz NOT NULL DEFAULT now(),
    expires_at          timestamptz NOT NULL,
    PRIMARY KEY (project_id, device_code_hash),
    CONSTRAINT cli_device_codes_user_code UNIQUE (project_id, user_code)
);
CREATE INDEX cli_device_codes_expiry ON cli_device_codes (project_id, expires_at);
