package embed

// conceptTable groups everyday words into meaning classes, one class a line:
// its name, then its words. A word may sit in several classes (a narrow one
// and a broader one: "piano" is an instrument and music). The table was
// written by hand for this project from general knowledge of English, about
// the things a household talks about: family, home, health, food, money,
// work, school, travel, pets, errands; it is not taken from any thesaurus.
// Words are stemmed when the table is read, so one entry covers a word's
// inflections.
//
// Do not edit this table casually: every change alters stored vectors, so it
// must come with a bump of algoVersion.
const conceptTable = `
child child children kid kids son daughter boy girl baby toddler teen teenager youngster infant offspring nephew niece grandson granddaughter grandchild stepson stepdaughter
parent parent parents mother mom mum mummy mommy mama father dad daddy papa stepmother stepfather guardian
grandparent grandparent grandmother grandma granny nana grandfather grandpa grandad granddad gramps
sibling sibling siblings brother sister bro sis twin twins stepbrother stepsister
relative relative relatives family aunt uncle cousin nephew niece inlaw cousins kin
spouse spouse husband wife partner fiance fiancee boyfriend girlfriend hubby
friend friend friends mate buddy pal neighbour neighbor colleague acquaintance guest
neighbour neighbour neighbor neighbours
person person people someone somebody guy man woman lady gentleman folks
music music musical piano guitar violin cello drum drums flute trumpet saxophone clarinet harp keyboard ukulele band orchestra choir song songs sing singing concert recital gig melody tune lesson
instrument instrument piano guitar violin cello drum drums flute trumpet saxophone clarinet harp keyboard ukulele
performance performance perform recital concert show gig play musical rehearsal audition stage premiere
school school kindergarten nursery preschool classroom class pupil pupils student teacher headteacher principal homework term semester college university academy tutor instructor lesson lessons course
teacher teacher teachers instructor tutor coach professor lecturer headteacher principal trainer
education education learn learning study studying lesson lessons course class classes tutor tuition training workshop
meeting meeting meetings conference appointment call catchup standup session consultation interview briefing summit
appointment appointment appointments booking booked reservation slot consultation checkup visit
health health doctor doctors gp physician clinic hospital nurse surgeon dentist dental medical medicine checkup appointment pharmacy pharmacist chemist prescription therapy therapist physio physiotherapist specialist
doctor doctor doctors gp physician clinic surgeon nurse medic specialist consultant
dentist dentist dental teeth tooth orthodontist hygienist cleaning filling braces gum gums
illness illness ill sick sickness disease condition infection flu cold fever virus symptom symptoms pain ache headache migraine cough
pain pain ache aches aching sore hurt hurts backache headache migraine cramp injury
body back spine neck shoulder knee hip ankle wrist elbow leg arm foot feet hand joint joints muscle
surgery surgery operation operated procedure transplant replacement surgeon anaesthetic stitches recovery recovering recover rehab
recover recover recovering recovery heal healing better mend rehab convalescing
medicine medicine medicines medication medications drug drugs pill pills tablet tablets antibiotic antibiotics penicillin amoxicillin ibuprofen paracetamol aspirin inhaler insulin prescription dose vaccine vaccination vaccinations jab jabs shot shots booster
allergy allergy allergies allergic react reaction reacts intolerance intolerant sensitive anaphylaxis hives rash epipen
nut nut nuts peanut peanuts almond almonds cashew walnut hazelnut pistachio
heart heart blood pressure hypertension cholesterol cardiac pulse heartbeat stroke
eye eye eyes eyesight vision sight optician optometrist glasses spectacles specs lenses contacts prescription reading blind squint
exercise exercise workout gym fitness training train run running jog jogging race marathon triathlon cycling swim swimming yoga pilates sport sports athletics
race race marathon 10k 5k triathlon run running sprint
gym gym fitness club membership workout weights treadmill
food food eat eating meal meals dinner lunch breakfast brunch supper snack cook cooking recipe dish cuisine
meat meat beef pork chicken lamb bacon ham sausage steak turkey fish salmon tuna seafood
vegetarian vegetarian vegan meat meatless veggie pescatarian
dairy dairy milk cheese butter yogurt yoghurt cream lactose
drink drink drinks coffee tea latte cappuccino espresso juice water beer wine soda brew
coffee coffee caffeine latte cappuccino espresso decaf brew cafe americano mocha
caffeine caffeine coffee tea espresso decaf
restaurant restaurant restaurants cafe bistro diner pub takeaway takeout eatery dine dining brasserie pizzeria
cuisine thai italian chinese indian mexican japanese french greek sushi curry pizza pasta noodles
grocery grocery groceries shopping supermarket shop store eggs bread milk butter cheese fruit vegetables produce basics essentials
breakfast breakfast cereal toast eggs bread porridge pancakes coffee morning
shop shop shopping buy buying purchase purchased order ordered store supermarket mall errand errands
home home house flat apartment place property residence household
house house home flat apartment cottage bungalow property
room room bedroom kitchen bathroom lounge hallway attic basement loft garage study nursery
bedroom bedroom bed sleep sleeping bedtime guestroom nursery
bathroom bathroom toilet shower bath sink loo
kitchen kitchen oven stove fridge freezer dishwasher sink cooker microwave
plumbing plumbing plumber pipe pipes drain drains leak leaking leaks leaky drip dripping tap taps faucet sink toilet shower clog clogged blocked unblock
leak leak leaking leaks leaky drip dripping drips seep flood
repair repair repairs fix fixed fixing mend maintenance service serviced servicing broken replace replacing handyman mechanic plumber electrician tradesman
landlord landlord landlady tenant tenancy rent lease renting rental
decorate decorate decorating paint painting repaint repainted wallpaper colour color colours colors shade renovate renovation makeover
colour colour color colours colors green blue red yellow white black grey gray pink purple orange beige shade paint
furniture furniture desk chair chairs table sofa couch bed wardrobe shelf shelves cabinet drawer
desk desk workstation office chair
garden garden gardening yard lawn grass mow mowing hedge weeds weeding flowers plants plant pots balcony patio shed
lawn lawn grass mow mowing mower turf yard
roof roof roofs gutter gutters drainpipe downpipe chimney tiles attic eaves
weather weather storm storms rain rainy wind windy snow forecast sunny thunder hail
heating heating boiler radiator radiators furnace heater thermostat gas
utility utility utilities electricity electric gas water power energy bill bills broadband internet
internet internet wifi broadband router network online connection login password code
password password passwords passcode pin login code credentials
key key keys spare lock locks door entry copy padlock
bin bin bins rubbish trash garbage waste recycling recycle compost collection collected dustbin
money money cash savings saving save budget funds finances fund afford cost costs price spend spending
savings savings saving save saved aside deposit fund
pay pay paying paid payment payments charge charges charged fee fees cost costs price rate bill
bill bill bills invoice invoices charge statement receipt payment
invoice invoice invoices bill billing charge client customer
customer customer customers client clients buyer account
loan loan loans mortgage borrow borrowing credit debt interest rate lender repayment
mortgage mortgage loan interest rate remortgage repayment lender
insurance insurance insured insure policy cover coverage premium claim renew renewal
tax tax taxes return revenue hmrc irs accountant filing file paperwork
paperwork paperwork forms form documents document papers file filing submit application
subscription subscription subscriptions membership member renew renewal cancel cancelled streaming netflix spotify plan
cancel cancel cancelled canceled stop stopped quit end ended unsubscribe drop dropped
car car cars vehicle vehicles auto van truck suv motor
car-service brake brakes pads oil tyre tyres tire tires wheel wheels mot service servicing mechanic garage engine battery
garage garage mechanic workshop
travel travel trip trips holiday holidays vacation journey abroad flight flights fly flying plane airport tour travelling traveling getaway break
flight flight flights fly flying plane airplane airline airport gate boarding depart departs departure takeoff layover
depart depart departs departure leave leaves leaving
passport passport passports visa visas id identity papers
country japan tokyo spain madrid portugal lisbon france paris italy rome germany berlin england london
japan japan tokyo japanese osaka kyoto
spain spain madrid spanish barcelona seville
portugal portugal lisbon portuguese porto
language language languages spanish french german italian japanese english portuguese chinese mandarin fluent vocabulary grammar
wedding wedding weddings marry married marrying marriage bride groom engaged engagement ceremony reception
birthday birthday birthdays party celebration celebrate anniversary cake turn turns turning
celebration celebration party birthday anniversary festival occasion
gift gift gifts present presents bouquet flowers card cards
flowers flowers flower bouquet roses tulips florist
thanks thanks thank gratitude grateful appreciation appreciate
letter letter letters card cards note notes message email mail write writing
message message email emailed mail text texted call phone ring contact write
phone phone call calls ring rang dial telephone mobile cell
pet pet pets dog dogs puppy pup cat cats kitten rescue animal animals hamster rabbit
dog dog dogs puppy pup hound pooch canine walkies
vet vet vets veterinarian veterinary
name name named called call nickname
military military army navy naval sailor soldier marine served service veteran troops
navy navy naval sailor sailors fleet ship seaman
craft craft crafts pottery ceramics clay knitting sewing painting drawing woodwork
class class classes lesson lessons course courses workshop session
week weekday monday tuesday wednesday thursday friday midweek
weekend weekend saturday sunday weekends
season spring summer autumn fall winter seasonal
evening evening evenings night tonight
afternoon afternoon afternoons 2pm 3pm 4pm
volunteer volunteer volunteering volunteers charity charities donate donation donations nonprofit
charity charity charities foodbank pantry shelter donation donate fundraiser
food-bank foodbank pantry
computer computer computers laptop laptops notebook pc desktop macbook tablet device
battery battery batteries charge charging charger drain drains drained power
phone-device phone iphone smartphone mobile tablet device
software database databases server servers postgres sqlite mysql software code system systems app backend
migrate migrate migration move moving switch switching switched transfer port change
data data database databases storage records
work work job office boss manager colleague team company employer career workplace engineer engineers staff
team team teams engineers engineering staff colleagues crew squad
presentation presentation slides slide deck talk pitch keynote speech demo
report report reports summary document review
finish finish finished complete completed done
babysit babysitter babysitting nanny childminder childcare sitter daycare nursery
cost cost costs price charge charges fee fees rate rates dollars pounds euros expensive cheap
clean clean cleaning clear clearing tidy tidying wash washing scrub hoover vacuum
lose weight diet dieting calories cutting limit limiting reduce quit
reduce reduce reducing cut cutting limit limiting less fewer quit
prefer prefer prefers preference like likes favourite favorite love loves enjoy enjoys
favourite favourite favorite best beloved
sleep sleep sleeping asleep bed bedtime nap insomnia tired
adopt adopt adopted adoption rescue rescued shelter foster
reading reading read book books novel novels biography library
book-club book books novel
collect collect collecting pick fetch get grab
pharmacy pharmacy pharmacist chemist drugstore prescription medicine
renew renew renewal renewed renews expire expires expiry expired extend
expire expire expires expiry expired renew renewal due end ends
post post parcel package delivery courier mail postal
storm storm storms gale hurricane thunder
grass grass lawn turf meadow
old-people elderly older retired pensioner grandparent
sick-day sick unwell poorly ill
university university college campus degree student graduate
move move moving relocate relocation
photo photo photos photograph photography camera pictures
friday friday weekend
deadline deadline due by overdue late
emotion happy happiness glad joy joyful cheerful delighted pleased excited thrilled content
sad sad sadness unhappy upset down depressed depression gloomy miserable lonely grief grieving heartbroken cry crying tears
angry angry anger mad furious annoyed irritated frustrated frustration cross upset argument argue row fight
worry worry worried worries anxious anxiety nervous stress stressed stressful panic overwhelmed tense fear afraid scared
tired tired exhausted exhaustion fatigue fatigued weary sleepy drained burnout knackered
transport bus train tram subway metro underground taxi cab uber commute commuting ride lift station platform ticket fare
bicycle bike bicycle cycle cycling cyclist helmet puncture
drive drive driving driver drove parking park licence license motorway highway traffic
sport football soccer tennis golf rugby cricket basketball baseball hockey volleyball badminton squash match league tournament
team-sport match game fixture score scored goal goals win won lose lost draw
swim swim swimming swimmer pool lane lengths goggles
hike hike hiking walk walking trek trail climb climbing mountain hill ramble
clothes clothes clothing shirt shirts trousers pants jeans dress skirt jacket coat jumper sweater shoes boots trainers sneakers socks hat scarf gloves uniform outfit
laundry laundry washing wash ironing iron dryer detergent stain
cleaning hoover vacuum mop dust dusting polish scrub bleach wipe spotless tidy chores housework
cook cook cooking bake baking roast fry grill boil recipe chef
bake bake baking baked cake bread loaf dough oven sourdough pastry muffin cookies biscuits
kitchenware pan pans pot pots kettle toaster blender knife knives plate plates bowl mug cup cups cutlery
vegetable vegetables veg carrot carrots potato potatoes onion onions tomato tomatoes lettuce spinach broccoli peas beans pepper cucumber
fruit fruit apple apples banana bananas orange oranges grapes berries strawberries lemon pear peach
sweets sweets candy chocolate dessert pudding biscuits cookies icecream sugar sugary treats
alcohol alcohol beer wine whisky vodka gin cocktail cocktails pint drunk hangover booze
movie movie movies film films cinema screening trailer actor actress
television tv television telly series show episode episodes season streaming netflix documentary
game game games gaming videogame console playstation xbox nintendo boardgame chess puzzle
holiday-season christmas easter thanksgiving halloween hanukkah diwali eid ramadan newyear
religion church mosque synagogue temple prayer pray service mass faith
news news headline headlines newspaper article journalist
phone-call call called calling ring rang voicemail callback
email email emails inbox reply replied forward attachment newsletter
meeting-work agenda minutes deadline project milestone deliverable sprint roadmap
boss boss manager supervisor director ceo head lead
job job jobs career role position vacancy hire hiring hired recruit recruiter interview offer promotion promoted raise salary
salary salary pay wage wages paycheck payslip income earnings bonus raise
quit resign resigned resignation quit leaving notice redundant redundancy fired sacked layoff
office office desk workplace cubicle coworking headquarters
remote remote wfh hybrid commute
tech software app apps update upgrade install bug crash crashed reboot restart settings account
printer printer printing print ink toner scanner
router router modem wifi broadband internet hotspot signal
repairman repairman technician engineer handyman electrician plumber builder contractor decorator
builder builder builders construction extension renovation scaffolding contractor
electric electric electrical electrician wiring socket sockets fuse lights bulb bulbs switch power outage
appliance appliance washer dryer fridge freezer oven dishwasher microwave kettle hoover
noise noise noisy loud banging racket
neighbourhood street road avenue lane neighbourhood neighborhood area block district
legal lawyer solicitor attorney court lawsuit sue contract will probate legal notary
bank bank banking account accounts overdraft transfer card debit credit statement atm
budget budget budgets budgeting spending expenses expenditure forecast overspent overspend
debt debt debts owe owed owing loan overdraft arrears
shop-online online amazon ebay order ordered delivery delivered parcel courier return refund
refund refund refunded return returned exchange receipt complaint
complaint complaint complain complained grievance feedback review
baby baby babies infant newborn nappy nappies diaper diapers pram stroller cot crib bottle feeding teething
pregnancy pregnant pregnancy expecting due midwife scan ultrasound maternity paternity
elderly-care carehome carer caregiver elderly frail dementia alzheimers
mental-health therapy therapist counsellor counselor counselling psychologist psychiatrist mental
sleep-problem insomnia snore snoring nightmare nightmares restless
diet diet dieting calories nutrition healthy protein carbs vitamins supplements
weight weight kilos pounds heavier lighter overweight slim
skin skin rash eczema acne itch itchy sunburn mole
cold cold colds flu cough coughing sneeze sneezing runny congested
injury injury injured sprain sprained fracture broken bruise cut wound bleeding
test test tests results scan xray mri bloodtest biopsy screening
hospital hospital ward emergency er ambulance admitted discharged
house-move move moving removal removals packing boxes relocate
rent rent rental renting lease tenancy deposit landlord letting
garden-tools mower lawnmower hose rake spade shovel shears wheelbarrow
tools tools drill hammer screwdriver spanner wrench saw ladder toolbox
pest pest pests mice mouse rats rat ants wasps cockroach fleas slugs
weather-cold cold freezing frost frosty icy ice snow chilly
weather-hot hot heat heatwave warm sunny humid
camping camping camp tent campsite caravan motorhome
hotel hotel hotels inn motel hostel airbnb accommodation lodging resort stay
beach beach seaside coast sea ocean sand waves surf
museum museum gallery exhibition exhibit art theatre theater opera ballet
reading-material magazine magazines newspaper novel comic comics
writing write writing writer author blog journal diary essay
photo-camera camera lens tripod selfie photos album
paperwork-id licence license passport id certificate documents
vote vote voting election ballot polling candidate council
community community neighbours volunteers church club association committee
club club society group team association
party-event party parties bash gathering barbecue bbq picnic
invitation invite invited invitation rsvp guests guest
anniversary anniversary jubilee
funeral funeral memorial wake burial cremation passed died death condolences
sick-pet vet limping vomiting fleas worming neutered spayed
cat cat cats kitten kittens kitty litter catflap
bird bird birds parrot budgie chickens hens
fish-pet aquarium goldfish tank
horse horse horses pony riding stable stables
`
