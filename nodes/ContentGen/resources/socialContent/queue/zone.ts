/**
 * Wall-clock time in an IANA time zone, from Intl alone (the only zone data available to a node).
 * A wall-clock reading is written as the UTC milliseconds of the same digits ("wall ms"), so that
 * calendar arithmetic on it is plain arithmetic.
 */

const DAY_MS = 86_400_000;

export interface ZoneClock {
	/**
	 * The zone as the user spelled it (Intl's case when only the case differs): Intl resolves some
	 * names to older links (Asia/Kolkata to Asia/Calcutta), which the user never wrote.
	 */
	zone: string;
	/** The wall-clock reading of an instant, in wall ms, to the second. */
	wallOf(instant: number): number;
	/**
	 * The instants whose wall-clock reading is `wall`, earliest first: none on a spring-forward day
	 * when the reading falls in the skipped hour, two on a fall-back day when it falls in the
	 * repeated hour, else one.
	 */
	instantsOf(wall: number): number[];
}

/** The clock of `zone`; throws a RangeError when Intl does not know the zone. */
export function zoneClock(zone: string): ZoneClock {
	const format = new Intl.DateTimeFormat('en-US', {
		timeZone: zone,
		hourCycle: 'h23',
		year: 'numeric',
		month: 'numeric',
		day: 'numeric',
		hour: 'numeric',
		minute: 'numeric',
		second: 'numeric',
	});
	const wallOf = (instant: number): number => {
		const parts = format.formatToParts(new Date(Math.floor(instant / 1000) * 1000));
		const get = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? NaN);
		return Date.UTC(
			get('year'),
			get('month') - 1,
			get('day'),
			get('hour') % 24,
			get('minute'),
			get('second'),
		);
	};
	const offsetAt = (instant: number) => wallOf(instant) - Math.floor(instant / 1000) * 1000;
	const instantsOf = (wall: number): number[] => {
		// Every offset in force within a day either side covers any instant that reads `wall`
		// (offsets stay within ±14 h), and zones change offset at most once in such a span.
		const offsets = new Set([offsetAt(wall - DAY_MS), offsetAt(wall), offsetAt(wall + DAY_MS)]);
		const found: number[] = [];
		for (const offset of offsets) {
			const instant = wall - offset;
			if (wallOf(instant) === wall && !found.includes(instant)) found.push(instant);
		}
		return found.sort((a, b) => a - b);
	};
	const resolved = format.resolvedOptions().timeZone;
	const spelled = resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
	return { zone: spelled, wallOf, instantsOf };
}
