/** Tables of a Markdown text, found by their shape: a header row, a separator row, then rows. */
export interface Table {
	file: string;
	/** Column names, lower case. */
	header: string[];
	rows: string[][];
	/** The line (1-based) of each row. */
	lines: number[];
}

/** A row's cells; `\|` is a pipe inside a cell, as in GitHub's Markdown. */
const cells = (line: string) =>
	line
		.trim()
		.replace(/^\||\|$/g, '')
		.split(/(?<!\\)\|/)
		.map((cell) => cell.trim());

export function tablesOf(file: string, text: string): Table[] {
	const lines = text.split('\n');
	const tables: Table[] = [];
	for (let i = 0; i + 1 < lines.length; i++) {
		if (!lines[i].trim().startsWith('|') || !/^\s*\|[\s:|-]+\|\s*$/.test(lines[i + 1])) continue;
		const rows: string[][] = [];
		const at: number[] = [];
		let j = i + 2;
		for (; j < lines.length && lines[j].trim().startsWith('|'); j++) {
			rows.push(cells(lines[j]));
			at.push(j + 1);
		}
		tables.push({ file, header: cells(lines[i]).map((h) => h.toLowerCase()), rows, lines: at });
		i = j;
	}
	return tables;
}
