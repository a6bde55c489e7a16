# frequency(E) of the first branch minus that of the second at the second's energies (linear
# interpolation in the first), where both are defined: "energy difference" lines.
BEGIN { FS = "," }
FNR == 1 { next }
NR == FNR { n++; E[n] = $5; w[n] = $4; next }
{
  for (k = 1; k < n; k++)
    if ((E[k] - $5) * (E[k + 1] - $5) <= 0 && E[k + 1] != E[k]) {
      printf "%.10g %.6e\n", $5, w[k] + (w[k + 1] - w[k]) * ($5 - E[k]) / (E[k + 1] - E[k]) - $4
      break
    }
}
