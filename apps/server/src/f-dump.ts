import { writeFileSync } from 'node:fs';
import { startTestApp } from './test/harness.ts';
const t = await startTestApp();
for (const [name, url] of [['api', '/docs/json'], ['internal', '/docs/internal/json']]) {
  const r = await t.app.inject({ method: 'GET', url });
  if (r.statusCode !== 200) console.log(name, r.statusCode, r.body.slice(0, 500));
  writeFileSync(`/tmp/f-docs/${name}.json`, r.body);
}
await t.close();
