package dev.fwframework.pci

import java.util.regex.Matcher
import java.util.regex.Pattern

/**
 * Card data in logs and test data: masking, the Luhn check and the synthetic test cards.
 *
 * Written without closures so that it runs unchanged inside a CPS-transformed pipeline.
 */
class CardData implements Serializable {
    /** 16 digits, optionally grouped in fours by '-' or a space, not preceded by a digit. */
    private static final String SIXTEEN_DIGITS = '(?<!\\d)\\d{4}[- ]?\\d{4}[- ]?\\d{4}[- ]?\\d{4}'

    /** A card number: not followed by a digit either, so never part of a longer run of digits. */
    private static final Pattern CARD_NUMBER = Pattern.compile(SIXTEEN_DIGITS + '(?!\\d)')

    /** A card number, and the CVV when 3 or 4 digits follow it after a space, ',', ';', '|' or '/'. */
    private static final Pattern CARD_AND_CVV = Pattern.compile(SIXTEEN_DIGITS + '(?:[ ,;|/]{1,3}\\d{3,4})?(?!\\d)')

    /** A CVV named as such: cvv, cvv2, cvc, cvc2, cid, csc or "security code", then 3 or 4 digits. */
    private static final Pattern NAMED_CVV = Pattern.compile(
        '(?i)\\b(?:cvv2?|cvc2?|cid|csc|security[ _-]?code)\\b\\W{0,4}(\\d{3,4})(?!\\d)')

    /**
     * Well-known test numbers of the card networks; each passes the Luhn check and none is a real account. Tests use
     * only these.
     */
    static final List<String> SYNTHETIC = [
        '4111111111111111', '4012888888881881', '4242424242424242', // Visa
        '5555555555554444', '5105105105105100', '2223003122003222', // Mastercard
        '6011111111111117', '6011000990139424',                     // Discover
        '3530111333300000', '3566002020360505',                     // JCB
    ].asImmutable()

    /** Card numbers become groups of four asterisks (separators kept); every CVV becomes asterisks. */
    static String mask(String text) {
        if (text == null) return ''
        return maskDigits(maskDigits(text, CARD_AND_CVV, 0), NAMED_CVV, 1)
    }

    /** The Luhn (mod 10) check over the digits of a 12- to 19-digit number; separators '-' and ' ' are ignored. */
    static boolean passesLuhn(String number) {
        String digits = number == null ? '' : number.replaceAll('[- ]', '')
        if (!(digits ==~ /\d{12,19}/)) return false
        int sum = 0
        boolean twice = false
        for (int i = digits.length() - 1; i >= 0; i--) {
            int d = Character.digit(digits.charAt(i), 10)
            if (twice) {
                d *= 2
                if (d > 9) d -= 9
            }
            sum += d
            twice = !twice
        }
        return sum % 10 == 0
    }

    /** A synthetic card number (the list wraps around). */
    static String synthetic(int index) {
        return SYNTHETIC[Math.floorMod(index, SYNTHETIC.size())]
    }

    /**
     * The card numbers in a text that are not synthetic: 16-digit numbers that pass the Luhn check (what a real card
     * number does) and are not in SYNTHETIC. Returned masked but for the last four digits, so a report never repeats
     * a real number.
     */
    static List<String> nonSyntheticCards(String text) {
        List<String> found = []
        if (text == null) return found
        Matcher m = CARD_NUMBER.matcher(text)
        while (m.find()) {
            String digits = m.group().replaceAll('[- ]', '')
            if (passesLuhn(digits) && !SYNTHETIC.contains(digits)) {
                found.add('************' + digits.substring(12))
            }
        }
        return found
    }

    /** Replaces every digit of the given group of each match by '*'. */
    private static String maskDigits(String text, Pattern pattern, int group) {
        Matcher m = pattern.matcher(text)
        StringBuilder out = new StringBuilder()
        int last = 0
        while (m.find()) {
            out.append(text, last, m.start(group))
            out.append(m.group(group).replaceAll('\\d', '*'))
            last = m.end(group)
        }
        out.append(text.substring(last))
        return out.toString()
    }
}
