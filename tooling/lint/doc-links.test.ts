import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link of the repository's Markdown resolves: the file or folder it names
 * exists, and a `#fragment` names a heading of that file (as GitHub makes heading anchors).
 * Links to other sites are not followed.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The Markdown files git tracks or would track (not those it ignores). */
function markdownFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
    cwd: root,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((f) => f !== '' && existsSync(join(root, f)))
    .sort();
}

/** Text outside fenced code blocks. */
function unfenced(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** Text outside code blocks and inline code, where links are links. */
function prose(text: string): string {
  return unfenced(text).replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower-cased, punctuation dropped, spaces to dashes. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{Letter}\p{Number}\p{Mark}\p{Connector_Punctuation}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings, with GitHub's `-1`, `-2` for repeats. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of unfenced(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    // Inline code is part of a heading's text, without its backticks.
    const base = anchorOf((match[1] ?? '').replace(/`/g, ''));
    const count = seen.get(base) ?? 0;
    anchors.add(count === 0 ? base : `${base}-${count}`);
    seen.set(base, count + 1);
  }
  for (const match of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1] ?? '');
  return anchors;
}

interface Link {
  file: string;
  line: number;
  target: string;
}

function linksOf(file: string, text: string): Link[] {
  const links: Link[] = [];
  const body = prose(text);
  const lines = body.split('\n');
  lines.forEach((content, index) => {
    for (const match of content.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1] ?? '';
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
      links.push({ file, line: index + 1, target });
    }
  });
  return links;
}

describe('links between the docs', () => {
  const files = markdownFiles();

  it('finds the Markdown files', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/api.md');
  });

  it('makes anchors as GitHub does', () => {
    expect(anchorOf('Search')).toBe('search');
    expect(anchorOf('Upgrades without downtime')).toBe('upgrades-without-downtime');
    expect(anchorOf('Search text lower-cased (0024)')).toBe('search-text-lower-cased-0024');
    expect(anchorOf('Cursors under sorts and filters')).toBe('cursors-under-sorts-and-filters');
    expect(anchorOf('GET /records/{id}')).toBe('get-recordsid');
  });

  it('resolves every relative link and anchor', () => {
    const broken: string[] = [];
    const anchors = new Map<string, Set<string>>();
    const anchorsFor = (path: string) => {
      let found = anchors.get(path);
      if (!found) {
        found = anchorsOf(readFileSync(path, 'utf8'));
        anchors.set(path, found);
      }
      return found;
    };
    for (const file of files) {
      const path = join(root, file);
      for (const link of linksOf(file, readFileSync(path, 'utf8'))) {
        const [pathPart = '', fragment] = link.target.split('#');
        const target = pathPart === '' ? path : resolve(dirname(path), decodeURI(pathPart));
        const where = `${link.file}:${link.line} → ${link.target}`;
        if (!existsSync(target)) {
          broken.push(`${where} (no ${relative(root, target)})`);
          continue;
        }
        if (fragment && statSync(target).isFile() && target.endsWith('.md')) {
          if (!anchorsFor(target).has(decodeURIComponent(fragment)))
            broken.push(`${where} (no heading #${fragment} in ${relative(root, target)})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
