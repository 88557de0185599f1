/** Categorical colours (Okabe–Ito, readable with colour-vision deficiencies), in order of use. */
export const SERIES_COLORS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#f0e442'] as const;

/** The colour of the `index`-th series (cycles past the end). */
export function seriesColor(index: number): string {
  return SERIES_COLORS[((index % SERIES_COLORS.length) + SERIES_COLORS.length) % SERIES_COLORS.length] as string;
}
