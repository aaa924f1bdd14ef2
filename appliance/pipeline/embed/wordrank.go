package embed

// wordRankList is a compact frequency-rank list of common English words, most
// frequent first, written by hand from general knowledge of English word
// frequency (news, fiction and conversation together); it was not downloaded
// from or derived from any corpus. The tail holds everyday conversational
// words (food, home, health, work, time) at middling rank, because a
// wearable's transcripts are speech, where those are common. Only the order
// matters, and only roughly: rank feeds a logarithmic weight (see idfOf), so a
// word a few hundred places off moves its weight by a few percent.
//
// Do not edit this list casually: every change alters stored vectors, so it
// must come with a bump of algoVersion.
const wordRankList = `
the be and of a in to have it i that for you he with on do say this they at
but we his from not by she or as what go their can who get if would her all my
make about know will up one time there year so think when which them some me
people take out into just see him your come could now than like other how then
its our two more these want way look first also new because day use no man
find here thing give many well only those tell very even back any good woman
through us life child work down may after should call world over school still
try last ask need too feel three state never become between high really
something most another much family own leave put old while mean keep student
why let great same big group begin seem country help talk where turn problem
every start hand might american show part against place such again few case
week company system each right program hear question during play government
run small number off always move night live mr point believe hold today bring
happen next without before large million must home under water room write
mother area national money story young fact month different lot study book eye
job word though business issue side kind four head far black long both little
house yes since provide service around friend important father sit away until
power hour game often yet line political end among ever stand bad lose however
member pay law meet car city almost include continue set later community name
five once white least president learn real change team minute best several
idea kid body information nothing ago lead social understand whether watch
together follow parent stop face anything create public already speak others
read level allow add office spend door health person art sure war history
party within grow result open morning walk reason low win research girl guy
early food moment himself air teacher force offer enough education across
although remember foot second boy maybe toward able age policy everything love
process music including consider appear actually buy probably human wait serve
market die send expect sense build stay fall oh nation plan cut college
interest death course someone experience behind reach local kill six remain
effect yeah suggest class control raise care perhaps late hard field else pass
former sell major sometimes require along development themselves report role
better economic effort decide rate strong possible heart drug leader light
voice wife whole police mind finally pull return free military price less
according decision explain son hope develop view relationship carry town road
drive arm true federal break difference thank receive value international
building action full model join season society tax director position player
agree especially record pick wear paper special space ground form support
event official whose matter everyone center couple site project hit base
activity star table court oil situation cost industry figure street image
itself phone either data cover quite picture clear practice piece land recent
describe product doctor wall patient worker news test movie certain north
personal simply third technology catch step baby computer type attention draw
film tree source red nearly organization choose cause hair century evidence
window difficult listen soon culture billion chance brother energy period
summer realize hundred available plant likely opportunity term short letter
condition choice single rule daughter administration south husband floor
campaign material population economy medical hospital church close thousand
risk current fire future wrong involve defense anyone increase security bank
myself certainly west sport board seek per subject officer private rest
behavior deal performance fight throw top quickly past goal bed order author
fill represent focus foreign drop blood upon agency push nature color recently
store reduce sound note fine near movement page enter share common poor
natural race concern series significant similar hot language usually response
dead rise animal factor decade article shoot east save seven artist scene
stock career despite central eight thus treatment beyond happy exactly protect
approach lie size dog fund serious occur media ready sign thought list
individual simple quality pressure accept answer resource identify left
meeting determine prepare disease whatever success argue cup particularly
amount ability staff recognize indicate character growth loss degree wonder
attack herself region television box training pretty trade election everybody
physical lay general feeling standard bill message fail outside arrive
analysis benefit sex forward lawyer present section environmental glass skill
sister pm professor operation financial crime stage ok compare authority miss
design sort act ten knowledge gun station blue strategy clearly discuss indeed
truth song example democratic check environment leg dark various rather laugh
guess executive prove hang entire rock forget claim remove manager enjoy
network legal religious cold final main science green memory card above seat
cell establish nice trial expert spring firm radio visit management avoid
imagine tonight huge ball finish yourself theory impact respond statement
maintain charge popular traditional onto reveal direction weapon employee
cultural contain peace pain apply measure wide shake fly interview manage
chair fish particular camera structure politics perform bit weight suddenly
discover candidate production treat trip evening affect inside conference unit
style adult worry range mention deep edge specific writer trouble necessary
throughout challenge fear shoulder institution middle sea dream bar beautiful
property instead improve stuff detail method somebody magazine hotel soldier
reflect heavy bag heat marriage tough sing surface purpose exist pattern whom
skin agent owner machine gas ahead generation commercial address cancer item
reality coach mrs yard beat violence total tend investment discussion finger
garden notice collection modern task partner positive civil kitchen consumer
shot budget wish painting scientist safe agreement capital mouth nor victim
newspaper threat responsibility smile attorney score account interesting
audience rich dinner vote western relate travel debate prevent citizen
majority none front born admit senior assume wind key professional mission
fast alone customer suffer speech successful option participant southern fresh
eventually forest video global senate reform access restaurant judge publish
relation release bird opinion credit critical corner concerned recall version
stare safety effective neighborhood original troop income directly hurt
species immediately track basic strike sky freedom absolutely plane nobody
achieve object attitude labor refer concept client powerful perfect nine
therefore conduct announce conversation examine touch please attend completely
variety sleep involved investigation nuclear researcher press conflict spirit
replace british encourage argument camp brain feature afternoon am weekend
dozen possibility insurance department battle beginning date generally african
sorry crisis complete fan stick define easily hole element vision status
normal chinese ship solution stone slowly scale university introduce driver
attempt park spot lack ice boat drink sun distance wood handle truck mountain
survey supposed tradition winter village refuse sales roll communication
screen gain resident hide gold club farm potential european presence
independent district shape reader ms contract crowd christian express
apartment willing strength previous band obviously horse interested target
prison ride guard terms demand reporter deliver text tool wild vehicle observe
flight facility understanding average emerge advantage quick leadership earn
pound basis bright operate guest sample contribute tiny block protection
settle feed collect additional highly identity title mostly lesson faith river
promote living count unless marry tomorrow technique path ear shop folk
principle survive lift border competition jump gather limit fit cry equipment
worth associate critic warm aspect insist failure annual french christmas
comment responsible affair procedure regular spread chairman baseball soft
ignore egg belief demonstrate anybody murder gift religion review editor
engage coffee document speed cross influence anyway threaten commit female
youth wave afraid quarter background native broad wonderful deny apparently
slightly reaction twice suit perspective growing blow construction
intelligence destroy cook connection burn shoe grade context committee hey
mistake location clothes indian quiet dress promise aware neighbor function
bone active extend chief combine wine below cool voter learning bus hell
dangerous remind moral united category relatively victory academic internet
healthy negative following historical medicine tour depend photo finding grab
direct classroom contact justice participate daily fair pair famous exercise
knee flower tape hire familiar appropriate supply fully actor birth search tie
democracy eastern primary yesterday circle device progress bottom island
exchange clean studio train lady colleague application neck lean damage
plastic tall plate hate otherwise writing male alive expression football
intend chicken army abuse theater shut map extra session danger welcome
domestic lots literature rain desire assessment injury respect northern nod
paint fuel leaf dry russian instruction pool climb sweet engine fourth salt
expand importance metal fat ticket software disappear corporate strange lip
reading urban mental increasingly lunch educational somewhere farmer sugar
planet favorite explore obtain enemy greatest complex surround athlete invite
repeat carefully soul scientific impossible panel meaning mom married
instrument predict weather presidential emotional commitment supreme bear
pocket thin temperature surprise poll proposal consequence breath sight
balance adopt minority straight connect works teaching belong aid advice okay
photograph empty regional trail novel code somehow organize jury breast
acknowledge theme storm union desk thanks fruit expensive yellow conclusion
prime shadow struggle conclude analyst dance regulation being ring largely
shift revenue mark locate county appearance package difficulty bridge
recommend obvious basically emergency wash entirely plus kick properly anymore
hunt rely percentage lesser glad settlement discipline tooth wire pot frame
closer attract loan tennis corn wheel cheap dig sad forth dirty wet drama
exhibit teen spending guilty slow tight dear apple pilot shelter guarantee
household prize solve tear net occasion intellectual hat assistant fashion
narrow tank journey afford fiction confidence journal lock inner elsewhere
sheet cat elderly phase honor sudden smoke sequence buyer bowl cloud coat
chest ocean universe nurse mood scholar dust seriously hill taste alternative
engineer bean pure cousin uncle aunt wedding honest jacket soil tail dish
thick stretch smell closely mail shirt cable nearby anniversary funeral
grandmother grandfather fiber ally alright recover reference jail investor
tone expectation flag pepper sir mess perception rank aim remote permanent
principal regard fold mass decline fabric resolution ancient prayer ethnic
witness unusual alcohol prospect frequently silence senator sophisticated
meter illness exit frankly jewish virus creature beneath spiritual guilt
gently relief consistent arrest twenty twelve eleven fifteen fifty forty
thirty sixty hundreds thousands millions careful worried tired scared excited
nervous upset angry bored proud lucky busy sick hungry crazy funny weird
awesome amazing cute lovely silly stupid smart fancy plain giant honestly
literally totally definitely whenever wherever meanwhile hence furthermore
moreover nevertheless nonetheless bake boil fry grill roast chop slice mix
stir pour chew swallow wipe scrub rinse iron sew knit sketch glance gaze blink
wink grin frown giggle sob scream shout yell whisper mumble murmur sigh cough
sneeze yawn breathe tire fix repair install upgrade adjust bend twist spin
relax nap wake snore sleepy awake weekday monday tuesday wednesday thursday
friday saturday sunday january february march april june july august september
october november december noon midnight autumn holiday avenue downtown uptown
suburb ought wise confirm scope tissue transition poem sensitive employ widely
pace latter mixture lifestyle evaluate regulatory terrible hero precisely
instructor burden maker tower concrete poverty muscle reduction weekly swing
tourist outcome journalist mechanism virtually temporary expose fighting
consist external liberal whereas circumstance slip stability stream assign
inch fault entry retain grant possess shore engagement loud gear blade anger
quietly fee illegal chemical bath vast extreme disability lifetime wealth
neither plenty eager legislation cycle golf curve elite lens motion exposure
margin talent estimate provision conservative depending ease chapter solar
dependent substance ownership consumption distinct contemporary precise
constitute preserve dismiss prefer occasionally permit phrase regardless rapid
rapidly suspect suppose loose sensible shortly sole cope submit capacity pile
creation kingdom vital leather widespread accompany drag tendency intense
ancestor wander consensus wound assist ultimately excellent rarely genuine
romantic collapse frequency ordinary opposition absence trace rhythm satisfy
transform tribe gesture emphasize vessel observer sum sustain guideline vary
shared attach laboratory motivation surgery intervention obligation equation
characteristic infant aggressive enforcement hesitate pursue revolution
arrangement retirement proceed specialist neat clinical bunch diverse
framework humor silver sustainable fortune ethics convert complain dramatic
dramatically admire passion pursuit reflection elect enable profile mystery
tale sponsor enhance innocent slide sharp vulnerable accurate advance precious
arise confusion rid pregnant tension bless brand cheese butter bread milk beer
salad soup tea chocolate potato tomato onion garlic orange banana lemon
sandwich cookie candy snack meal recipe oven fridge couch bedroom bathroom
shower towel blanket pillow mirror lamp roof garage stairs bottle jar pan
spoon tray mug trash garbage laundry vacuum soap pill vitamin clinic pharmacy
prescription therapy therapist symptom fever flu headache allergy diet workout
yoga swim bicycle hike passport luggage beach cruise taxi subway parking
traffic highway tunnel wage retire pension debt cash payment deposit savings
expense receipt refund coupon mall grocery purchase delivery shipping email
inbox voicemail laptop tablet keyboard printer wifi website app password login
download upload file folder spreadsheet presentation draft edit feedback memo
workshop lecture exam quiz homework assignment tutor semester diploma
graduation campus roommate celebration invitation concert festival museum
gallery zoo shelf closet drawer curtain carpet basement porch sink counter
sofa toilet broom bucket sponge shampoo razor gonna wanna gotta kinda sorta
dunno till cuz ya things guys folks kids dad mommy daddy grandma grandpa sis
bro hello hi bye goodbye huh hmm um uh ah wow yep yup nope nah bother annoy
hurry rush arrange cancel postpone delay forgot remembered borrow lend owe
paid spent bought sold brought taught caught fought sought mentioned decided
wondered happened started finished stopped tried used sounds seems looks feels
means needs wants gets goes says does makes guessed kidding joking excuse
pardon quit wrap checking calling waiting planning everywhere anywhere nowhere
whoever whichever half double triple minutes hours days weeks months years
`
