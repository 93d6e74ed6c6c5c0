// Each table's scroll region is a landmark, which needs a name; only the compiled page knows the heading above it.
import type {Heading, Nodes, Root, Table} from 'mdast';

function textOf(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  return 'children' in node ? (node.children as Nodes[]).map(textOf).join('') : '';
}

function headersOf(table: Table): string {
  return (table.children[0]?.children ?? [])
    .map((cell) => textOf(cell).trim())
    .filter(Boolean)
    .join(', ');
}

function tablesWithHeadings(root: Root): {table: Table; heading: string | undefined}[] {
  const found: {table: Table; heading: string | undefined}[] = [];
  let heading: string | undefined;
  const walk = (node: Nodes) => {
    if (node.type === 'heading') heading = textOf(node as Heading).trim() || heading;
    if (node.type === 'table') found.push({table: node, heading});
    if ('children' in node) (node.children as Nodes[]).forEach(walk);
  };
  walk(root);
  return found;
}

export function tableNames(root: Root): string[] {
  const tables = tablesWithHeadings(root);
  const first = tables.map(({heading, table}) => heading ?? `Table: ${headersOf(table)}`);
  const names = tables.map(({heading, table}, index) =>
    heading !== undefined && first.filter((name) => name === first[index]).length > 1
      ? `${heading} (${headersOf(table)})`
      : first[index]!,
  );
  // Same heading and same columns: number them.
  return names.map((name, index) =>
    names.filter((other) => other === name).length > 1
      ? `${name} ${names.slice(0, index + 1).filter((other) => other === name).length}`
      : name,
  );
}

export default function tableNamesPlugin() {
  return (root: Root): void => {
    const names = tableNames(root);
    tablesWithHeadings(root).forEach(({table}, index) => {
      table.data = {...table.data, hProperties: {...table.data?.hProperties, ariaLabel: names[index]!}};
    });
  };
}
