/**
 * A `node --test` reporter that prints, at the end, how long each test file's tests took in all,
 * the longest first: where the browser suite's time goes.
 */
import path from 'node:path';

export default async function* fileTimes(source) {
  const spent = new Map();
  for await (const { type, data } of source) {
    if ((type === 'test:pass' || type === 'test:fail') && data.nesting === 0 && data.file) {
      const file = path.basename(data.file);
      spent.set(file, (spent.get(file) ?? 0) + data.details.duration_ms);
    }
  }
  const rows = [...spent].sort((a, b) => b[1] - a[1]);
  yield '# time per file (the sum of its tests)\n';
  for (const [file, ms] of rows) yield `# ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}\n`;
}
