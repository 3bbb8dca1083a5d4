/** What the message collector (./messages) reads in a source file's syntax tree. */
import ts from 'typescript';

export function lineOf(sf: ts.SourceFile, node: ts.Node): number {
	return sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
}

export function calleeName(expression: ts.Expression): string | undefined {
	if (ts.isIdentifier(expression)) return expression.text;
	if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
	return undefined;
}

/** The initializer of the nearest declaration of `identifier` in its file. */
export function declarationOf(
	sf: ts.SourceFile,
	identifier: ts.Identifier,
): ts.Expression | undefined {
	let best: ts.VariableDeclaration | undefined;
	const visit = (node: ts.Node): void => {
		if (
			ts.isVariableDeclaration(node) &&
			ts.isIdentifier(node.name) &&
			node.name.text === identifier.text &&
			node.initializer &&
			node.getStart(sf) < identifier.getStart(sf) &&
			encloses(node.parent.parent.parent, identifier)
		) {
			best = node;
		}
		ts.forEachChild(node, visit);
	};
	visit(sf);
	return best?.initializer;
}

function encloses(scope: ts.Node, node: ts.Node): boolean {
	return node.getStart() >= scope.getStart() && node.getEnd() <= scope.getEnd();
}

export function functionNamed(
	sf: ts.SourceFile,
	name: string,
): ts.FunctionLikeDeclaration | undefined {
	const found = findNamed(sf, name);
	if (!found) return undefined;
	if (ts.isFunctionDeclaration(found)) return found;
	if (
		ts.isVariableDeclaration(found) &&
		found.initializer &&
		(ts.isArrowFunction(found.initializer) || ts.isFunctionExpression(found.initializer))
	)
		return found.initializer;
	return undefined;
}

/** A function declaration or a variable of that name anywhere in the file. */
export function findNamed(
	sf: ts.SourceFile,
	name: string,
): ts.FunctionDeclaration | ts.VariableDeclaration | undefined {
	let found: ts.FunctionDeclaration | ts.VariableDeclaration | undefined;
	const visit = (node: ts.Node): void => {
		if (found) return;
		if (
			(ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node)) &&
			node.name &&
			ts.isIdentifier(node.name) &&
			node.name.text === name
		) {
			found = node;
			return;
		}
		ts.forEachChild(node, visit);
	};
	visit(sf);
	return found;
}

/** A variable's value, or what a function returns (an arrow's body, each `return`). */
export function valuesOf(node: ts.Node): ts.Expression[] {
	if (ts.isVariableDeclaration(node)) {
		if (!node.initializer) return [];
		const init = node.initializer;
		return ts.isArrowFunction(init) || ts.isFunctionExpression(init) ? valuesOf(init) : [init];
	}
	if (ts.isArrowFunction(node) && !ts.isBlock(node.body)) return [node.body];
	const body = (node as ts.FunctionLikeDeclaration).body;
	if (!body) return [];
	const values: ts.Expression[] = [];
	const visit = (child: ts.Node): void => {
		if (ts.isFunctionLike(child)) return; // returns of nested functions are theirs
		if (ts.isReturnStatement(child) && child.expression) values.push(child.expression);
		ts.forEachChild(child, visit);
	};
	ts.forEachChild(body, visit);
	return values;
}
