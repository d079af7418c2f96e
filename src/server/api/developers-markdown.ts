import type { DeveloperDocs, DocField, DocOperation } from './developer-docs.ts';

/** A table cell: one line, pipes escaped (GitHub Markdown reads `\|` as a pipe, in code spans too). */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|');
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

function fieldRow(field: DocField): string[] {
  return [
    `\`${field.name}\``,
    field.location,
    field.required ? 'yes' : 'no',
    field.type,
    field.rules.length > 0 ? field.rules.join('; ') : '—',
    field.description,
  ];
}

function operationSection(operation: DocOperation): string {
  const parts = [
    `### ${operation.operationId}: ${operation.method} ${operation.path}`,
    operation.deprecation
      ? `**Deprecated** since ${operation.deprecation.since}; removed on ${operation.deprecation.sunset}.`
      : 'Not deprecated.',
    `${operation.summary}. ${operation.description}`,
    operation.facts.map((fact) => `- ${fact}`).join('\n'),
  ];
  if (operation.fields.length > 0) {
    parts.push(table(['Field', 'In', 'Required', 'Type', 'Rules', 'Meaning'], operation.fields.map(fieldRow)));
  }
  parts.push(
    table(
      ['Status', 'Meaning', 'Headers'],
      operation.responses.map(({ status, description, headers }) => [
        String(status),
        description,
        headers.map((name) => `\`${name}\``).join(', ') || '—',
      ]),
    ),
    `\`\`\`sh\n${operation.curl}\n\`\`\``,
  );
  if (operation.responseExample) parts.push(`Answer:\n\n\`\`\`json\n${operation.responseExample}\n\`\`\``);
  return parts.join('\n\n');
}

/** /developers.md: the Markdown twin of /developers, from the same model; `more` are whole sections put before the documents. */
export function developersMarkdown(docs: DeveloperDocs, more: readonly string[] = []): string {
  const sections = [
    '# Developers',
    ...docs.introduction,
    '## Rules every operation shares',
    docs.commonRules.map((rule) => `- ${rule}`).join('\n'),
    '## Headers of every answer',
    docs.frameHeaders.map(({ name, description }) => `- \`${name}\`: ${description}`).join('\n'),
    '## Operations',
    table(
      ['Operation', 'Method and path', 'Purpose'],
      docs.operations.map((operation) => [`\`${operation.operationId}\``, `${operation.method} ${operation.path}`, operation.summary]),
    ),
    ...docs.operations.map(operationSection),
    ...more,
    '## Discovery documents',
    docs.documents.map(({ url, path, about }) => `- [${path}](${url}): ${about}`).join('\n'),
    '## Change log',
    ...docs.changelog.map(
      ({ version, date, changes }) => `### ${version} (${date})\n\n${changes.map((change) => `- ${change}`).join('\n')}`,
    ),
  ];
  return `${sections.join('\n\n')}\n`;
}
