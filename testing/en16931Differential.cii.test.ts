// The CII half of the differential test against the official EN 16931 XSLT (testing/en16931DifferentialSuite.ts).
import { differentialSuite } from './en16931DifferentialSuite.js';

differentialSuite('CII');
