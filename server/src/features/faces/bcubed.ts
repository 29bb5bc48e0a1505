/**
 * BCubed precision and recall (Amigó et al. 2009) of a clustering against labels: for each labelled item, the
 * share of its cluster that has its label (precision) and the share of its label that is in its cluster
 * (recall), averaged over the items. An unclustered item is a cluster of its own.
 */
export interface BCubed {
  precision: number;
  recall: number;
  f1: number;
  /** Clusters holding labelled items of more than one label. */
  mixed: number;
}

export function bcubed(items: { label: string; cluster: number | null }[]): BCubed {
  const clusterOf = items.map((it, i) => (it.cluster == null ? `noise:${i}` : `c:${it.cluster}`));
  let p = 0, r = 0;
  items.forEach((it, i) => {
    const inCluster = items.filter((_, j) => clusterOf[j] === clusterOf[i]);
    const sameLabel = items.filter((o) => o.label === it.label);
    const both = inCluster.filter((o) => o.label === it.label).length;
    p += both / inCluster.length;
    r += both / sameLabel.length;
  });
  const precision = items.length ? p / items.length : 1;
  const recall = items.length ? r / items.length : 1;
  const labelsPer = new Map<string, Set<string>>();
  items.forEach((it, i) => {
    if (it.cluster == null) return;
    const s = labelsPer.get(clusterOf[i]!) ?? new Set<string>();
    s.add(it.label);
    labelsPer.set(clusterOf[i]!, s);
  });
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0, mixed: [...labelsPer.values()].filter((s) => s.size > 1).length };
}
