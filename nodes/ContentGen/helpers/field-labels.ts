/**
 * How Output > Selected Fields names a record's field: in Title Case, as n8n names options, with
 * the abbreviations in capitals ('Created At', 'Image URLs') and a platform by the name both
 * nodes show for it ('LinkedIn Carousel Plan'). The option's value stays the key.
 */
import { platformLabel } from '../../shared/domain/platforms';

const CAPITALS: Record<string, string> = { id: 'ID', url: 'URL', urls: 'URLs', seo: 'SEO' };

export function fieldLabel(key: string): string {
	return key
		.split('_')
		.map(
			(word) =>
				CAPITALS[word] ?? platformLabel(word) ?? `${word.charAt(0).toUpperCase()}${word.slice(1)}`,
		)
		.join(' ');
}
