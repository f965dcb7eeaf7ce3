import { describe, expect, it } from '@jest/globals';
import { contrastRatio, darkenHex, readableShade } from '../../web/src/logic/contrast';

describe('the theme contrast arithmetic', () => {
  it('computes WCAG ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#1971c2', '#ffffff')).toBeCloseTo(5.02, 1);
    expect(darkenHex('#ff8000', 0.5)).toBe('#804000');
  });

  it('picks a shade that carries text at AA, darkening one that cannot', () => {
    const blue = ['', '', '', '', '', '', '', '#1c7ed6', '#1971c2', '#1864ab'];
    expect(readableShade(blue)).toBe('#1971c2');
    const yellow = ['', '', '', '', '', '', '', '#f59f00', '#f08c00', '#e67700'];
    const picked = readableShade(yellow);
    expect(contrastRatio(picked, '#ffffff')).toBeGreaterThanOrEqual(5);
    expect(contrastRatio(darkenHex('#e67700', 0.0), '#ffffff')).toBeLessThan(5);
  });
});
