/**
 * A fresh in-memory account for one test: its records (listed by id), the service answering for
 * it, and n8n's clock moved with the account's until `stopClock` restores it.
 */
import { useVirtualClock, VirtualService } from '../../harness/trigger/virtual';
import { prng, World } from '../../harness/trigger/world';

export function freshAccount(seed: number): {
	world: World;
	service: VirtualService;
	stopClock: () => void;
} {
	const world = new World(prng(seed), { socialOrder: 'id' });
	return { world, service: new VirtualService(world), stopClock: useVirtualClock(world) };
}
