package dev.fwframework.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** maskCardData, the Luhn check, syntheticCardNumber and checkTestCardData, run as a pipeline runs them. */
class CardDataTest {
    @TempDir Path workspace;

    private String mask(String text) {
        return (String) new Pipeline(workspace).call("maskCardData", text);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        "4111111111111111                              | ****************",
        "4111-1111-1111-1111                           | ****-****-****-****",
        "4111 1111 1111 1111                           | **** **** **** ****",
        "4111-1111 1111-1111                           | ****-**** ****-****",
        "paid with card=4111111111111111;order=77      | paid with card=****************;order=77",
    })
    void cardNumbersBecomeGroupsOfFourAsterisks(String line, String expected) {
        assertEquals(expected, mask(line));
    }

    @Test
    void fifteenAndSeventeenDigitRunsAreNotCardNumbers() {
        assertEquals("ref 378282246310005 build", mask("ref 378282246310005 build"));
        assertEquals("id 41111111111111112 end", mask("id 41111111111111112 end"));
        assertEquals("4111-1111-1111-111", mask("4111-1111-1111-111"));
    }

    @Test
    void numbersInsideOtherTextAndSeveralOnOneLine() {
        assertEquals("a****************b and **** **** **** **** done",
            mask("a4111111111111111b and 5105 1051 0510 5100 done"));
        assertEquals("line 1 ****************\nline 2 build 1234 took 56 s",
            mask("line 1 4242424242424242\nline 2 build 1234 took 56 s"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        "4111 1111 1111 1111 123           | **** **** **** **** ***",
        "4111111111111111/1234             | ****************/****",
        "card 4111-1111-1111-1111, 737     | card ****-****-****-****, ***",
        "cvv: 123                          | cvv: ***",
        "CVV2=321 ok                       | CVV2=*** ok",
        "security code 5555                | security code ****",
        "cvc 12345                         | cvc 12345",
    })
    void theCvvIsMaskedBesideACardNumberOrWhereItIsNamed(String line, String expected) {
        assertEquals(expected, mask(line));
    }

    @Test
    void jsonCardDataIsMasked() {
        assertEquals("{\"pan\":\"****-****-****-****\"}", mask("{\"pan\":\"5555-5555-5555-4444\"}"));
        assertEquals("{\"number\":\"****************\",\"cvc\":\"***\"}", mask("{\"number\":\"4111111111111111\",\"cvc\":\"987\"}"));
    }

    @Test
    void anEmptyLogStaysEmpty() {
        assertEquals("", mask(""));
        assertEquals("", mask(null));
        assertEquals("no card data here\n", mask("no card data here\n"));
    }

    @Test
    void everySyntheticCardIs16DigitsAndPassesLuhn() {
        Pipeline pipeline = new Pipeline(workspace);
        @SuppressWarnings("unchecked")
        List<String> synthetic = (List<String>) pipeline.library("dev.fwframework.pci.CardData", "getSYNTHETIC");
        assertTrue(synthetic.size() >= 10);
        for (String card : synthetic) {
            assertTrue(card.matches("\\d{16}"), card);
            assertTrue((Boolean) pipeline.library("dev.fwframework.pci.CardData", "passesLuhn", card), card);
        }
        assertEquals(synthetic.get(0), pipeline.call("syntheticCardNumber", 0));
        assertEquals(synthetic.get(1), pipeline.call("syntheticCardNumber", synthetic.size() + 1));
    }

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource({
        "4111111111111111, true", "4111-1111-1111-1111, true", "4111 1111 1111 1111, true",
        "4111111111111112, false", "1234567812345678, false", "79927398713, false", "'', false", "4111x11111111111, false",
        "378282246310005, true", "4000056655665556, true",
    })
    void theLuhnCheck(String number, boolean valid) {
        assertEquals(valid, new Pipeline(workspace).library("dev.fwframework.pci.CardData", "passesLuhn", number));
    }

    @Test
    void testDataWithOnlySyntheticCardsPasses() throws Exception {
        Files.writeString(workspace.resolve("payments.json"), "[{\"pan\":\"4111 1111 1111 1111\"},{\"pan\":\"5555555555554444\"}]");
        new Pipeline(workspace).call("checkTestCardData", java.util.Map.of("files", List.of("payments.json"), "text", "order 1234567812345678"));
    }

    @Test
    void testDataWithAnotherCardNumberIsRefusedWithoutRepeatingIt() throws Exception {
        Files.writeString(workspace.resolve("fixtures.csv"), "id,pan\n1,4111111111111111\n2,4000-0566-5566-5556\n");
        Pipeline pipeline = new Pipeline(workspace);
        Pipeline.BuildFailure failure = assertThrows(Pipeline.BuildFailure.class,
            () -> pipeline.call("checkTestCardData", java.util.Map.of("files", List.of("fixtures.csv"), "text", "also 6011 0009 9013 9424 and 5200828282828210")));
        assertEquals("Test data holds card numbers that are not synthetic; use syntheticCardNumber() or one of CardData.SYNTHETIC instead:\n"
            + "  - fixtures.csv: ************5556\n  - text: ************8210", failure.getMessage());
        assertFalse(String.join("\n", pipeline.log).contains("40000566"));
    }
}
