/** E-invoice XML (CII and UBL): a pure reader from bytes, its field shape, and the page-vs-XML comparison. */
export { readEInvoice, looksLikeEInvoiceXml, pickEInvoiceAttachment, explainEInvoicePick, type EInvoicePick, isSpecifiedEInvoiceName, EINVOICE_ATTACHMENT_NAMES, type PdfAttachment } from './readEInvoice.js';
export { EInvoiceError, MAX_EINVOICE_BYTES, type EInvoiceErrorCode } from './xmlInput.js';
export type { EInvoice, EInvoiceLine, EInvoiceTax, XmlSourced } from './einvoice.js';
export { einvoiceReading, einvoicePlainFields } from './einvoiceReading.js';
export { comparePageWithXml, describeDisagreement, namesAgree, normaliseName, type PageValues } from './pageVsXml.js';
export { withEInvoice, pageVsXmlOf, type DocumentEInvoice } from './einvoiceOnPage.js';
export { readablePageRows, readablePageMarkdown, type PageRow, type PageCell } from './readablePage.js';
export { printsAmount, printsDate, printsFieldValue, printsIdentifier, printsName } from './printedOnPage.js';
