// The TypeScript SDK's side of the parity test: node parity.mjs '<json request>'.
// {url, project, subject, query, budget, messages?} -> prints {block, packet}.
import { HakiClient, render } from "../../../sdk/typescript/dist/index.js";

const req = JSON.parse(process.argv[2]);
const haki = new HakiClient({ baseUrl: req.url, projectId: req.project });
if (req.messages) {
  await haki.add(req.messages, { subjectId: req.subject, threadId: "parity" });
  await haki.consolidateSubject({ subjectId: req.subject });
}
const result = await haki.context(req.subject, req.query, { budgetTokens: req.budget });
process.stdout.write(JSON.stringify({ block: render(result, { subjectId: req.subject }), packet: result.packet }));
