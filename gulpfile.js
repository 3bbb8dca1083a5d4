const { src, dest } = require('gulp');

// tsc emits only JavaScript; n8n also loads the icons and the codex files from dist.
function buildIcons() {
	return src(['nodes/**/*.{png,svg}', 'nodes/**/*.node.json', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:icons'] = buildIcons;
exports.default = buildIcons;
