-- Device login (auth/device.py) is open to callers without a key, so its
-- limits are per client address: which address started a login is kept as a
-- digest (never the address itself), and pending logins are counted per
-- digest. One address filling the table no longer locks everyone out.
ALTER TABLE cli_device_codes ADD COLUMN client_ref text NOT NULL DEFAULT '';

CREATE INDEX cli_device_codes_client ON cli_device_codes (project_id, client_ref, expires_at);
