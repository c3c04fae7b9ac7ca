// The shared render goldens: the same files the Python SDK's test reads
// (tests/fixtures/render/, written by scripts/render_goldens.py).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { render } from "../dist/index.js";

const FIXTURES = fileURLToPath(new URL("../../../tests/fixtures/render/", import.meta.url));
const cases = readdirSync(FIXTURES).filter((f) => f.endsWith(".json")).sort();

test("the fixture folder has cases", () => {
  assert.ok(cases.length >= 5, `only ${cases.length} cases in ${FIXTURES}`);
});

for (const file of cases) {
  test(`render matches the golden block: ${file}`, () => {
    const { packet, subject_id: subjectId } = JSON.parse(readFileSync(FIXTURES + file, "utf8"));
    const expected = readFileSync(FIXTURES + file.replace(/\.json$/, ".txt"), "utf8");
    assert.equal(render(packet, { subjectId: subjectId ?? undefined }), expected);
  });
}

test("a typed packet and the whole context answer render alike", () => {
  const { packet, subject_id: subjectId } = JSON.parse(readFileSync(FIXTURES + "mixed_marks.json", "utf8"));
  const whole = { packet, trace_id: "t", token_count: 1 };
  assert.equal(render(whole, { subjectId }), render(packet, { subjectId }));
});

test("the order episodes arrive in does not change the block", () => {
  const { packet, subject_id: subjectId } = JSON.parse(readFileSync(FIXTURES + "mixed_marks.json", "utf8"));
  const reversed = { ...packet, episodes: [...packet.episodes].reverse() };
  assert.equal(render(reversed, { subjectId }), render(packet, { subjectId }));
});
