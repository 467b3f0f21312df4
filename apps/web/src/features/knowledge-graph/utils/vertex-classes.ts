/** A colour per vertex class; classes not listed are grey. */
export const CLASS_COLOURS: Readonly<Record<string, string>> = {
  condition: '#e53935',
  observation: '#1e88e5',
  question: '#fdd835',
  anatomicalLocation: '#43a047',
  bodySystem: '#8e24aa',
  pathologicalProcess: '#fb8c00',
  epidemiologicalFactor: '#00acc1',
  medication: '#6d4c41',
  labTest: '#3949ab',
  imaging: '#5e35b1',
  procedure: '#d81b60',
  sex: '#c0ca33',
};
const OTHER_COLOUR = '#9e9e9e';

export function colourOf(vertexClass: string): string {
  return CLASS_COLOURS[vertexClass] ?? OTHER_COLOUR;
}

/** A vertex class in words: `anatomicalLocation` → 'Anatomical location' (issue 20 #27). */
export function classLabel(vertexClass: string): string {
  const words = vertexClass
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
