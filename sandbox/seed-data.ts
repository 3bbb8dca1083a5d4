/** The fixed businesses and article topics the sandbox seeds its accounts with. */
export interface ProjectSeed {
	name: string;
	website: string;
	language: string;
	code: string;
	location: string;
	expert: string;
	status: string;
}

export const DEFAULT_PROJECTS: ProjectSeed[] = [
	{
		name: 'Northwind Coffee Roasters',
		website: 'https://northwind-coffee.example',
		language: 'English',
		code: 'en',
		location: 'Portland, USA',
		expert: 'Specialty coffee',
		status: 'active',
	},
	{
		name: 'Alpenblick Ferienwohnungen',
		website: 'https://alpenblick.example',
		language: 'German',
		code: 'de',
		location: 'Garmisch-Partenkirchen, Germany',
		expert: 'Holiday rentals',
		status: 'completed',
	},
	{
		name: 'Casa Verde Jardinería',
		website: 'https://casaverde.example',
		language: 'Spanish',
		code: 'es',
		location: 'Valencia, Spain',
		expert: 'Garden design',
		status: 'pending',
	},
	{
		name: 'Atelier Lumière',
		website: 'https://atelier-lumiere.example',
		language: 'French',
		code: 'fr',
		location: 'Lyon, France',
		expert: 'Lighting design',
		status: 'ready',
	},
	{
		name: 'Byte Forge Analytics',
		website: 'https://byteforge.example',
		language: 'English',
		code: 'en',
		location: 'Leeds, UK',
		expert: 'Data analytics',
		status: 'generating',
	},
];

export const OTHER_PROJECTS: ProjectSeed[] = [
	{
		name: 'Harbor Dental Studio',
		website: 'https://harbordental.example',
		language: 'English',
		code: 'en',
		location: 'Halifax, Canada',
		expert: 'Family dentistry',
		status: 'active',
	},
	{
		name: 'Kyoto Tea House',
		website: 'https://kyoto-tea.example',
		language: 'Japanese',
		code: 'ja',
		location: 'Kyoto, Japan',
		expert: 'Tea ceremony',
		status: 'active',
	},
	{
		name: 'Fjord Outdoor Gear',
		website: 'https://fjord-gear.example',
		language: 'Norwegian',
		code: 'no',
		location: 'Bergen, Norway',
		expert: 'Outdoor equipment',
		status: 'pending',
	},
];

export const TOPICS = [
	'How to brew pour-over coffee at home',
	'Choosing a holiday apartment in the Alps',
	'Drought-tolerant plants for small gardens',
	'Lighting a reading corner',
	'Dashboards that people actually read',
	'Cold brew versus iced coffee',
	'Planning a winter hiking trip',
	'Composting for beginners',
	'Accent lighting mistakes to avoid',
	'Measuring content marketing ROI',
];
