// Pieces travel to where they land: a pedestal new on the large altar flies there from
// where it was just seen (the tray of pedestals to place, else the bag's design), so a
// move of another seat is seen where it happens. Only the drawing moves; nothing here
// knows a rule. People who ask for less motion see the pieces simply appear.

const REDUCED = matchMedia("(prefers-reduced-motion: reduce)");
const TRAVEL_MS = 520;

const centre = (rect) => [rect.left + rect.width / 2, rect.top + rect.height / 2];

/** Where each design could come from, measured before the screen redraws. */
export function measureSources(root) {
  const pool = [...root.querySelectorAll("#pool-tray .pool-item")].map((item) => ({
    design: item.dataset.design,
    at: centre(item.getBoundingClientRect()),
  }));
  const bag = new Map(
    [...root.querySelectorAll("#bag .bag-item")].map((item) => [item.dataset.design, centre(item.getBoundingClientRect())]),
  );
  return { pool, bag };
}

/** Fly each newly appeared cube of `svg` from its source to its cell. */
export function travelNewPieces(svg, sources) {
  if (REDUCED.matches || !sources) return;
  const view = svg.viewBox.baseVal;
  const box = svg.getBoundingClientRect();
  if (!view?.width || !box.width) return;
  const scale = box.width / view.width;
  const pool = [...sources.pool];
  for (const cube of svg.querySelectorAll(".cube.appear")) {
    const design = cube.dataset.key?.split(":")[3];
    const index = pool.findIndex((source) => source.design === design);
    const from = index >= 0 ? pool.splice(index, 1)[0].at : sources.bag.get(design);
    if (!from) continue;
    const [x, y] = centre(cube.getBoundingClientRect());
    const dx = (from[0] - x) / scale;
    const dy = (from[1] - y) / scale;
    cube.classList.add("travelling");
    cube.animate(
      [
        { transform: `translate(${dx}px, ${dy}px) scale(0.8)`, opacity: 0.6 },
        { transform: "translate(0, 0) scale(1)", opacity: 1 },
      ],
      { duration: TRAVEL_MS, easing: "cubic-bezier(0.3, 0.7, 0.3, 1)" },
    );
  }
}
