import { costOf, type RoutingModel } from "../model";

/**
 * For each job, the other jobs nearest to it (by the first vehicle's cost, both directions),
 * closest first: where the ruin step looks for routes to cut near a seed. Only the nearest
 * `limit` are kept, so a 2 000-stop day costs n² distance reads and no n² sort.
 */
export function nearestJobs(model: RoutingModel, limit: number): Int32Array[] {
  const n = model.jobCount;
  const vehicle = model.vehicles[0]!;
  const keep = Math.min(limit, n - 1);
  const distance = new Float64Array(n);
  const order = new Int32Array(n);
  const lists: Int32Array[] = [];
  for (let job = 0; job < n; job++) {
    const here = model.loc[job]!;
    for (let other = 0; other < n; other++) {
      const there = model.loc[other]!;
      distance[other] = other === job ? Infinity : Math.min(costOf(model, vehicle, here, there), costOf(model, vehicle, there, here));
      order[other] = other;
    }
    lists.push(smallest(order, distance, keep));
  }
  return lists;
}

/** The `keep` indices with the smallest distances, sorted (quickselect, then a sort of the few). */
function smallest(order: Int32Array, distance: Float64Array, keep: number): Int32Array {
  let low = 0;
  let high = order.length - 1;
  while (keep > 0 && low < high) {
    const pivot = distance[order[(low + high) >> 1]!]!;
    let left = low;
    let right = high;
    while (left <= right) {
      while (distance[order[left]!]! < pivot) left++;
      while (distance[order[right]!]! > pivot) right--;
      if (left <= right) {
        const swap = order[left]!;
        order[left] = order[right]!;
        order[right] = swap;
        left++;
        right--;
      }
    }
    if (keep - 1 <= right) high = right;
    else if (keep - 1 >= left) low = left;
    else break;
  }
  return order.slice(0, keep).sort((a, b) => distance[a]! - distance[b]!);
}
