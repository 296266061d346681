import { decimalToDouble } from '../../src/alerts/decimal-to-double';
import { seededRandom } from '../../src/testing/alert-conditions';

describe('decimalToDouble', () => {
  it('gives the same double as Number for random decimals of every length', () => {
    const random = seededRandom(17);
    const mismatches: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const digits = 1 + Math.floor(random() * 20);
      let text = '';
      for (let d = 0; d < digits; d++) text += String(Math.floor(random() * 10));
      const point = Math.floor(random() * (digits + 1));
      // Decimal points anywhere (also leading or trailing), at most 10 decimals as the columns allow and beyond.
      const decimal = point === digits ? text : `${text.slice(0, point)}.${text.slice(point)}`;
      if (!Object.is(decimalToDouble(decimal), Number(decimal))) mismatches.push(decimal);
    }
    expect(mismatches).toEqual([]);
  });

  it('gives the same double as Number at the edges of its fast path and for other spellings', () => {
    const cases = [
      '0', '0.0', '5.', '.5', '999999999999999', '9999999999999999', '999999999999999.9', '0.000000000000001',
      '9007199254740993', '9007199254740992.5', '0.1', '0.3', '60740.25', '1e3', '-1', '+1', ' 1', '1 ', '', '.', '1.2.3', 'abc',
    ];
    for (const text of cases) expect([text, decimalToDouble(text)]).toEqual([text, Number(text)]);
  });
});
