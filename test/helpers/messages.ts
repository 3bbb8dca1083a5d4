/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test: reads the package's sources */
/**
 * Every message a user can see, collected from the package's own code
 * (test/docs/troubleshooting.test.ts checks that docs/troubleshooting.md has a row for each).
 *
 * A message is the wording given to n8n's errors (the argument of `new NodeOperationError(node,
 * ...)`, `UserError`, `Error`, and of every function or class of the package with a parameter
 * named `message`: ValidationError, AddressError, imageFailure, ...), a `message`, `warning` or
 * `errorMessage` property (the wording objects of transport/refusals.ts, the credential test's
 * results, execution hints, the editor's validation), a line the trigger logs (`logger.warn`,
 * `logger.info`), a note of "ContentGen Trigger is behind" (`notes.add`), and the few producers
 * whose words travel through return values or constants (PRODUCERS). Strings and templates are followed
 * through constants, conditionals, `??`, local functions and imported constants; what cannot be
 * followed (a parameter, a property of another object) is a hole, "…", matched by anything.
 */
import { readFileSync } from 'fs';
import { dirname, relative, resolve } from 'path';
import ts from 'typescript';

import { calleeName, declarationOf, findNamed, functionNamed, lineOf, valuesOf } from './ast';

/** Stands for a part of a message only known at run time. */
export const HOLE = '\u0000';

/** Errors from outside the package: the index of the argument that is their message. */
const EXTERNAL_CONSTRUCTORS: Record<string, number> = {
	Error: 0,
	UserError: 0,
	NodeOperationError: 1,
};

/** Object properties whose value is shown to the user as a message. */
const MESSAGE_PROPERTIES = ['message', 'warning', 'errorMessage'];

/** Calls that hand back their first argument, masked: the message is the argument's. */
const TRANSPARENT = ['redactSecrets'];

/**
 * Words that reach the user through a return value the collector cannot follow: the returns of a
 * function, or the value of a constant, named here. The test fails when one is no longer found.
 */
export const PRODUCERS: Array<{ file: string; name: string }> = [
	// Get Many's shortfall: the message of "Stop the Item", the hint of "Warn".
	{ file: 'nodes/shared/transport/pages.ts', name: 'shortfall' },
	// What the trigger expects to spend, logged at activation.
	{ file: 'nodes/ContentGenTrigger/cost.ts', name: 'expected' },
	// Full Record's note that content was gone before it could be read, logged by the poll.
	{ file: 'nodes/ContentGenTrigger/tracker/items.ts', name: 'goneNotice' },
];

/** A limit on alternatives of one expression; past it, the part is a hole. */
const MAX_ALTERNATIVES = 24;

export interface Message {
	/** file:line where the message is given */
	where: string;
	/** The wording, holes shown as "…". */
	text: string;
	/** Matches a documented wording of it (holes match anything). */
	pattern: RegExp;
}

interface Source {
	file: string;
	sf: ts.SourceFile;
}

export class MessageCollector {
	private readonly sources = new Map<string, Source>();

	constructor(
		private readonly root: string,
		files: Array<{ file: string; text: string }>,
	) {
		for (const { file, text } of files) {
			const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
			this.sources.set(file, { file, sf });
		}
	}

	static fromDisk(root: string, paths: string[]): MessageCollector {
		return new MessageCollector(
			root,
			paths.map((path) => ({ file: relative(root, path), text: readFileSync(path, 'utf8') })),
		);
	}

	/** Classes and functions of the package with a parameter named `message`, and its index. */
	private messageParameters(): Map<string, number> {
		const found = new Map<string, number>(Object.entries(EXTERNAL_CONSTRUCTORS));
		const extendsOf = new Map<string, string>();
		for (const { sf } of this.sources.values()) {
			const visit = (node: ts.Node): void => {
				if (ts.isClassDeclaration(node) && node.name) {
					const ctor = node.members.find(ts.isConstructorDeclaration);
					const index = ctor?.parameters.findIndex((p) => p.name.getText() === 'message') ?? -1;
					if (index >= 0) found.set(node.name.text, index);
					else if (!ctor) {
						const parent = node.heritageClauses?.[0]?.types[0]?.expression.getText();
						if (parent) extendsOf.set(node.name.text, parent);
					}
				}
				if (
					(ts.isFunctionDeclaration(node) && node.name) ||
					(ts.isVariableDeclaration(node) &&
						node.initializer &&
						ts.isArrowFunction(node.initializer))
				) {
					const fn = ts.isFunctionDeclaration(node) ? node : (node.initializer as ts.ArrowFunction);
					const index = fn.parameters.findIndex((p) => p.name.getText() === 'message');
					if (index >= 0) found.set((node.name as ts.Identifier).text, index);
				}
				ts.forEachChild(node, visit);
			};
			visit(sf);
		}
		// A class without a constructor of its own takes its parent's arguments.
		for (let changed = true; changed; ) {
			changed = false;
			for (const [name, parent] of extendsOf) {
				if (!found.has(name) && found.has(parent)) {
					found.set(name, found.get(parent)!);
					changed = true;
				}
			}
		}
		return found;
	}

	/** Every message the sources give, one per wording and place. */
	collect(): Message[] {
		const parameters = this.messageParameters();
		const out: Message[] = [];
		const add = (source: Source, at: ts.Node, expression: ts.Expression) => {
			for (const alternative of this.resolve(source, expression, 0)) {
				const message = toMessage(alternative, `${source.file}:${lineOf(source.sf, at)}`);
				if (message) out.push(message);
			}
		};
		for (const source of this.sources.values()) {
			const visit = (node: ts.Node): void => {
				if (ts.isNewExpression(node) || ts.isCallExpression(node)) {
					const name = calleeName(node.expression);
					const index = name === undefined ? undefined : parameters.get(name);
					const argument = index === undefined ? undefined : node.arguments?.[index];
					if (argument) add(source, node, argument);
					if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
						const method = node.expression.name.text;
						const owner = node.expression.expression.getText();
						const logs = /(^|\.)logger$/.test(owner) && ['warn', 'info'].includes(method);
						const notes = /(^|\.)notes$/.test(owner) && method === 'add';
						if ((logs || notes) && node.arguments[0]) add(source, node, node.arguments[0]);
					}
				}
				if (ts.isPropertyAssignment(node) && MESSAGE_PROPERTIES.includes(node.name.getText())) {
					add(source, node, node.initializer);
				}
				if (ts.isShorthandPropertyAssignment(node) && MESSAGE_PROPERTIES.includes(node.name.text)) {
					add(source, node, node.name);
				}
				ts.forEachChild(node, visit);
			};
			visit(source.sf);
		}
		for (const producer of PRODUCERS) {
			const source = this.sources.get(producer.file);
			const found = source && findNamed(source.sf, producer.name);
			if (!source || !found) continue;
			for (const expression of valuesOf(found)) add(source, found, expression);
		}
		return dedupe(out);
	}

	/** Producers that are not where PRODUCERS says. */
	missingProducers(): string[] {
		return PRODUCERS.filter((p) => {
			const source = this.sources.get(p.file);
			return !source || !findNamed(source.sf, p.name);
		}).map((p) => `${p.file}: ${p.name}`);
	}

	/**
	 * The wordings an expression can have, holes where it depends on run time. Inside a template
	 * (`inside`), a named function's result is a formatted value (a count, a quoted input: a
	 * hole), and a choice between plain words ('second' or 'seconds') is too; a table of
	 * sentences or a choice between whole wordings is followed.
	 */
	private resolve(
		source: Source,
		expression: ts.Expression,
		depth: number,
		inside = false,
	): string[] {
		if (depth > 12) return [HOLE];
		const next = (e: ts.Expression, s: Source = source, within = inside) =>
			this.resolve(s, e, depth + 1, within);
		const choice = (alternatives: string[]) =>
			inside && alternatives.every((a) => !a.includes(HOLE)) ? [HOLE] : bounded(alternatives);
		const e = expression;
		if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [e.text];
		if (
			ts.isParenthesizedExpression(e) ||
			ts.isAsExpression(e) ||
			ts.isNonNullExpression(e) ||
			ts.isTypeAssertionExpression(e)
		)
			return next(e.expression);
		if (ts.isConditionalExpression(e)) return choice([...next(e.whenTrue), ...next(e.whenFalse)]);
		if (ts.isBinaryExpression(e)) {
			const op = e.operatorToken.kind;
			if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken)
				return choice([...next(e.left), ...next(e.right)]);
			if (op === ts.SyntaxKind.PlusToken) return join2(next(e.left), next(e.right));
			return [HOLE];
		}
		if (ts.isTemplateExpression(e)) {
			let alternatives = [e.head.text];
			for (const span of e.templateSpans) {
				const inner = next(span.expression, source, true).filter((x) => x !== UNDEFINED);
				// An optional part ('' among its wordings) or too many wordings: a hole.
				const part = inner.length === 0 || inner.includes('') ? [HOLE] : inner;
				alternatives = join2(join2(alternatives, part), [span.literal.text]);
			}
			return alternatives;
		}
		if (ts.isIdentifier(e)) {
			if (e.text === 'undefined') return [UNDEFINED];
			const local = declarationOf(source.sf, e);
			if (local) return next(local);
			const imported = this.imported(source, e.text);
			if (imported) return next(imported.expression, imported.source);
			return [HOLE];
		}
		if (ts.isCallExpression(e)) {
			const name = calleeName(e.expression);
			if (name && TRANSPARENT.includes(name) && e.arguments[0]) return next(e.arguments[0]);
			// A function of the same file: the wordings of its returns.
			if (ts.isIdentifier(e.expression) && !inside) {
				const fn = functionNamed(source.sf, e.expression.text);
				if (fn) return bounded(valuesOf(fn).flatMap((value) => next(value)));
			}
			// A table of functions (`SENTENCES[code]?.(host)`): the wordings of every entry.
			const callee = ts.isElementAccessExpression(e.expression)
				? e.expression.expression
				: undefined;
			if (callee && ts.isIdentifier(callee)) {
				const table = declarationOf(source.sf, callee);
				if (table && ts.isObjectLiteralExpression(table)) {
					return bounded(
						table.properties.flatMap((p) =>
							ts.isPropertyAssignment(p) && ts.isArrowFunction(p.initializer)
								? valuesOf(p.initializer).flatMap((value) => next(value))
								: [],
						),
					);
				}
			}
			return [HOLE];
		}
		return [HOLE];
	}

	/** A constant another source file of the package exports under this name. */
	private imported(
		source: Source,
		name: string,
	): { source: Source; expression: ts.Expression } | undefined {
		for (const statement of source.sf.statements) {
			if (!ts.isImportDeclaration(statement)) continue;
			const bindings = statement.importClause?.namedBindings;
			if (!bindings || !ts.isNamedImports(bindings)) continue;
			const element = bindings.elements.find((el) => el.name.text === name);
			if (!element) continue;
			const from = (statement.moduleSpecifier as ts.StringLiteral).text;
			if (!from.startsWith('.')) return undefined;
			const target = relative(this.root, resolve(this.root, dirname(source.file), `${from}.ts`));
			const other = this.sources.get(target);
			const original = element.propertyName?.text ?? name;
			const found = other && findNamed(other.sf, original);
			if (other && found && ts.isVariableDeclaration(found) && found.initializer)
				return { source: other, expression: found.initializer };
		}
		return undefined;
	}
}

const UNDEFINED = '\u0001undefined';

function bounded(alternatives: string[]): string[] {
	const unique = [...new Set(alternatives)];
	return unique.length > MAX_ALTERNATIVES ? [HOLE] : unique;
}

function join2(left: string[], right: string[]): string[] {
	return bounded(left.flatMap((a) => right.map((b) => a + b)));
}

/** Enough words to be a message of its own; a pure assembly of other messages is not. */
function toMessage(wording: string, where: string): Message | undefined {
	if (wording === UNDEFINED) return undefined;
	const headline = headlineOf(wording);
	const letters = headline.replace(new RegExp(HOLE, 'g'), '').replace(/[^A-Za-z]/g, '');
	if (letters.length < 8) return undefined;
	return { where, text: shown(headline), pattern: patternOf(headline) };
}

/** The first sentence: what a message leads with, and what a table row quotes. */
export function headlineOf(wording: string): string {
	const cut = new RegExp(`^([\\s\\S]*?[^.\\s][.!])(?:\\s+(?=[A-Z"${HOLE}])|(?=${HOLE}))`).exec(
		wording,
	);
	return (cut ? cut[1] : wording).trim().replace(/\.$/, '');
}

export const shown = (wording: string) => wording.replace(new RegExp(`${HOLE}+`, 'g'), '…');

/** A wording that starts in lower case (or a quote) is a clause other messages end with. */
function patternOf(headline: string): RegExp {
	const parts = headline.split(new RegExp(`${HOLE}+`));
	const escaped = parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
	const clause = /^[a-z"]/.test(headline) ? '.*?' : '';
	return new RegExp(`^${clause}${escaped.join('.*?')}$`, 's');
}

/** One message per wording and place; a wording another one of the same place covers is left out. */
function dedupe(messages: Message[]): Message[] {
	const seen = new Map<string, Message>();
	for (const m of messages)
		if (!seen.has(`${m.text}@${m.where}`)) seen.set(`${m.text}@${m.where}`, m);
	const unique = [...seen.values()];
	return unique.filter(
		(m) =>
			!unique.some(
				(o) => o !== m && o.where === m.where && o.text !== m.text && o.pattern.test(m.text),
			),
	);
}
