// Holds the process open while a cycle runs. The client's scheduler waits for its budgets on an
// unreferenced timer, so a cycle whose only pending work is such a wait would otherwise let
// Node exit half way (exit code 13, "unsettled top-level await").
export async function keepAlive<T>(work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => undefined, 60_000);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
